//! What can go wrong with a network or its file.

use std::path::PathBuf;

/// Why a network could not be made, saved or loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// Layer sizes that are not an input set's inputs (52, 87 or 103), up to 8 hidden layers of 1
    /// to 256, and 1 output.
    #[error(
        "bad layer sizes {0:?}: expected 52, 87 or 103 inputs, 1 to 8 hidden layers of 1 to 256, 1 output"
    )]
    Sizes(Vec<usize>),
    /// A weights file names an input set this version does not know, or one whose input count
    /// is not the file's first layer size.
    #[error("input set {id} is unknown, or does not have the file's {first} inputs")]
    Inputs {
        /// The id in the file.
        id: u32,
        /// The file's first layer size.
        first: usize,
    },
    /// A weights file names buckets this version does not know.
    #[error("buckets {0} are unknown to this version")]
    Buckets(u32),
    /// The parameters do not fit the layer sizes.
    #[error("{found} parameters, but the layer sizes need {expected}")]
    ParameterCount {
        /// What the sizes need.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A parameter is NaN or infinite.
    #[error("parameter {index} is not a finite number")]
    NotFinite {
        /// Its index among the parameters.
        index: usize,
    },
    /// The bytes are not a whole, undamaged weights file (another kind of file, another
    /// version, cut short or padded, damaged), or the file could not be read or written.
    #[error(transparent)]
    File(#[from] tns_file::FileError),
    /// What went wrong with a weights file, and which.
    #[error("{}: {source}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: Box<NetworkError>,
    },
}

impl NetworkError {
    /// The same error, naming the file it is about.
    #[must_use]
    pub fn in_file(self, path: &std::path::Path) -> NetworkError {
        NetworkError::InFile { path: path.to_path_buf(), source: Box::new(self) }
    }

    /// Whether the file was simply not there.
    pub fn is_missing(&self) -> bool {
        match self {
            NetworkError::File(tns_file::FileError::Missing) => true,
            NetworkError::InFile { source, .. } => source.is_missing(),
            _ => false,
        }
    }
}

/// A name that is none of those accepted: an unknown [`Objective`](crate::Objective),
/// [`Inputs`](crate::Inputs) or [`Buckets`](crate::Buckets), as `FromStr` reads them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {given:?}: expected {}", Accepted(accepted))]
pub struct NameError {
    what: &'static str,
    given: String,
    accepted: &'static [&'static str],
}

impl NameError {
    /// `given` is not one of the `accepted` names of `what` (`"objective"`, say).
    pub(crate) fn new(
        what: &'static str,
        given: &str,
        accepted: &'static [&'static str],
    ) -> NameError {
        NameError { what, given: given.to_string(), accepted }
    }

    /// What was being named: `objective`, `input set` or `buckets`.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The text given.
    pub fn given(&self) -> &str {
        &self.given
    }

    /// The names accepted.
    pub fn accepted(&self) -> &'static [&'static str] {
        self.accepted
    }
}

/// Names as a list for people: `a`, `a or b`, `a, b or c`.
struct Accepted<'a>(&'a [&'a str]);

impl std::fmt::Display for Accepted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == self.0.len() { " or " } else { ", " })?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_error_says_what_was_given_and_what_is_accepted() {
        let e = NameError::new("input set", "all", &["pieces", "threats", "mobility"]);
        assert_eq!(
            e.to_string(),
            "unknown input set \"all\": expected pieces, threats or mobility"
        );
        assert_eq!((e.what(), e.given(), e.accepted().len()), ("input set", "all", 3));
        assert!(std::error::Error::source(&e).is_none());
        let two = NameError::new("buckets", "x", &["one", "phase"]);
        assert_eq!(two.to_string(), "unknown buckets \"x\": expected one or phase");
    }
}
