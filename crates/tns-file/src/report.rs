//! An error and its causes as one line, for a program to show.

use std::error::Error;

/// `error` and each of its causes (`source()`), joined by `": "`, as anyhow's `{:#}` writes
/// them, but without a cause whose words the line already holds.
///
/// Some errors name their cause in their own message as well as keeping it as `source()`
/// (`"{path}: {source}"`), and a program's context may quote the error it explains; walking the
/// chain blindly would say those twice.
///
/// ```
/// use std::io;
/// let inner = io::Error::new(io::ErrorKind::NotFound, "no such file");
/// #[derive(Debug)]
/// struct Opening(io::Error);
/// impl std::fmt::Display for Opening {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "table.bin: {}", self.0)
///     }
/// }
/// impl std::error::Error for Opening {
///     fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
///         Some(&self.0)
///     }
/// }
/// assert_eq!(tns_file::one_line(&Opening(inner)), "table.bin: no such file");
/// ```
#[must_use]
pub fn one_line(error: &(dyn Error + 'static)) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let text = next.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = next.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::one_line;
    use std::fmt;
    use std::io;

    #[derive(Debug)]
    struct Context {
        text: &'static str,
        cause: io::Error,
    }

    impl fmt::Display for Context {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.text)
        }
    }

    impl std::error::Error for Context {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.cause)
        }
    }

    #[test]
    fn causes_follow_the_error() {
        let e = Context { text: "reading a.txt", cause: io::Error::other("disk on fire") };
        assert_eq!(one_line(&e), "reading a.txt: disk on fire");
    }

    #[test]
    fn a_cause_already_said_is_not_said_again() {
        let e = Context { text: "a.txt: disk on fire", cause: io::Error::other("disk on fire") };
        assert_eq!(one_line(&e), "a.txt: disk on fire");
    }

    #[test]
    fn an_error_without_causes_is_its_message() {
        assert_eq!(one_line(&io::Error::other("plain")), "plain");
    }
}
