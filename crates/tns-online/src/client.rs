//! A blocking client of the online API (docs/online.md), for synchronous programs: the
//! terminal game and bots. Plain `http://` only; a server behind HTTPS is reached through a
//! proxy that speaks http to it.

use std::fmt;
use std::io::{BufRead as _, BufReader, Read as _};
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::event::{Event, EventKind};
use crate::token::{GameId, ParseGameIdError, ParseTokenError, Token};
use crate::view::{CreatedGame, GameView, NewGame};

/// The longest link or server address read.
pub const MAX_LINK: usize = 512;

/// The largest answer read, in bytes: a game's answer is a few KiB even with hundreds of moves.
pub const MAX_ANSWER: u64 = 1 << 20;

/// The longest line of an event stream read, in bytes.
pub const MAX_LINE: usize = 64 << 10;

/// Reconnections of an event stream tried in a row before it gives up.
const STREAM_TRIES: u32 = 5;

/// The wait before the first reconnection; each next one waits twice as long.
const FIRST_BACKOFF: Duration = Duration::from_millis(250);

/// How long a stream may be silent before it counts as dropped: three times the server's 20 s
/// keepalive.
const STREAM_SILENCE: Duration = Duration::from_secs(60);

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request (not a stream) may take, its answer read.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a text is not a game's link or a server's address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Longer than [`MAX_LINK`].
    #[error("a link is at most {MAX_LINK} characters")]
    TooLong,
    /// Not `http://`.
    #[error(
        "a link starts with http:// (this client speaks no TLS: reach an https server through a proxy)"
    )]
    NotHttp,
    /// No host, or a host with characters no host name has.
    #[error("a link names its server as http://HOST or http://HOST:PORT")]
    Host,
    /// Characters after the host that no link of the server has.
    #[error("a link's path is letters, digits and ._~/- only")]
    Path,
    /// No `/play/ID` in the link.
    #[error("a game's link is http://HOST[:PORT]/play/ID, with #TOKEN after it for a seat")]
    NotAGame,
    /// The game's id does not read.
    #[error("the link's game id does not read")]
    Id(#[source] ParseGameIdError),
    /// The seat's token does not read.
    #[error("the link's token (after #) does not read")]
    Token(#[source] ParseTokenError),
}

/// A game's link: the server, the game, and the seat's token for a seat's link (none for a
/// watch link). Its `Debug` never shows the token.
#[derive(Clone, PartialEq, Eq)]
pub struct Link {
    /// The server's address the API's paths go after: `http://HOST[:PORT]` (and the path the
    /// server is served under, if any), without a trailing `/`.
    pub base: String,
    /// The game.
    pub game: GameId,
    /// The seat's token, for a seat's link.
    pub token: Option<Token>,
}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Link")
            .field("base", &self.base)
            .field("game", &self.game)
            .field("token", &self.token)
            .finish()
    }
}

/// Checks a server's address, `http://HOST[:PORT][/PATH]`, and gives it without a trailing `/`.
fn check_base(text: &str) -> Result<&str, LinkError> {
    if text.len() > MAX_LINK {
        return Err(LinkError::TooLong);
    }
    let rest = text.strip_prefix("http://").ok_or(LinkError::NotHttp)?;
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let host_char = |c: char| c.is_ascii_alphanumeric() || ".-:[]".contains(c);
    if host.is_empty() || !host.chars().all(host_char) || host.starts_with(':') {
        return Err(LinkError::Host);
    }
    let path_char = |c: char| c.is_ascii_alphanumeric() || "._~/-".contains(c);
    if !path.chars().all(path_char) {
        return Err(LinkError::Path);
    }
    Ok(text.trim_end_matches('/'))
}

impl Link {
    /// Reads a seat's link (`http://HOST[:PORT]/play/ID#TOKEN`) or a watch link (without
    /// `#TOKEN`). Spaces around it are ignored.
    ///
    /// # Errors
    /// A text that is not such a link, saying what is wrong (never quoting the token).
    pub fn parse(text: &str) -> Result<Link, LinkError> {
        let text = text.trim();
        if text.len() > MAX_LINK {
            return Err(LinkError::TooLong);
        }
        let (address, token) = match text.split_once('#') {
            Some((address, token)) => {
                (address, Some(token.parse::<Token>().map_err(LinkError::Token)?))
            }
            None => (text, None),
        };
        let (base, id) = address.rsplit_once("/play/").ok_or(LinkError::NotAGame)?;
        let base = check_base(base)?;
        if base.len() <= "http://".len() || base.ends_with('/') {
            return Err(LinkError::Host);
        }
        let game = id.trim_end_matches('/').parse::<GameId>().map_err(LinkError::Id)?;
        Ok(Link { base: base.to_string(), game, token })
    }
}

/// What is wrong with an answer of the server.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The answer is not the JSON the API says.
    #[error("it is not the JSON the API answers")]
    Json(#[source] serde_json::Error),
    /// The answer is longer than the client reads.
    #[error("it is longer than {MAX_ANSWER} bytes")]
    TooLong,
    /// A line of the stream is longer than the client reads.
    #[error("a line is longer than {MAX_LINE} bytes")]
    LineTooLong,
    /// An event's number is not the one after the last.
    #[error("event {got} came after event {after} (the next is {})", after + 1)]
    OutOfOrder {
        /// The number of the last event.
        after: u64,
        /// The number that came.
        got: u64,
    },
    /// The stream ended before the game did, and the game says it has events not sent.
    #[error("the stream ended at event {at} and the game has more")]
    EndedEarly {
        /// The number of the last event.
        at: u64,
    },
}

/// Why a request to the server did not give what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server refused, with its status and its reason (`401` no seat for the token,
    /// `404` no such game, `409` not now, `422` not a move, `429` too fast...).
    #[error("the server refused ({status}): {error}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's reason, its `{"error": ...}`.
        error: String,
    },
    /// The server could not be reached, or the connection failed.
    #[error("cannot reach the server ({what})")]
    Connection {
        /// What was asked.
        what: String,
        /// The HTTP client's error.
        #[source]
        source: ureq::Error,
    },
    /// The server answered what the API does not say.
    #[error("the server's answer to {what} does not read")]
    BadAnswer {
        /// What was asked.
        what: String,
        /// What is wrong with it.
        #[source]
        source: AnswerError,
    },
    /// A link or server address that does not read.
    #[error("not a link of a game")]
    BadLink(#[from] LinkError),
}

/// A blocking client of one server's online API.
#[derive(Clone)]
pub struct Client {
    base: String,
    /// For requests: each within [`REQUEST_TIMEOUT`].
    agent: ureq::Agent,
    /// For event streams: open as long as the game, silent at most [`STREAM_SILENCE`].
    streams: ureq::Agent,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("base", &self.base).finish_non_exhaustive()
    }
}

/// An answer that is not 2xx, as a refusal with the server's reason.
fn refusal(status: u16, body: &mut ureq::Body) -> ClientError {
    #[derive(serde::Deserialize)]
    struct Refusal {
        error: String,
    }
    let text = body.with_config().limit(MAX_ANSWER).lossy_utf8(true).read_to_string();
    let text = text.unwrap_or_default();
    let error = serde_json::from_str::<Refusal>(&text).map_or_else(
        |_| text.chars().take(200).collect::<String>().trim().to_string(),
        |r| r.error,
    );
    ClientError::Refused { status, error }
}

impl Client {
    /// A client of the server at `base` (`http://HOST[:PORT]`, as in its links).
    ///
    /// # Errors
    /// [`ClientError::BadLink`] for an address that is not `http://HOST[:PORT]`.
    pub fn new(base: &str) -> Result<Client, ClientError> {
        let base = check_base(base.trim())?.to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_global(Some(REQUEST_TIMEOUT))
            .build()
            .new_agent();
        let streams = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_per_read(Some(STREAM_SILENCE))
            .build()
            .new_agent();
        Ok(Client { base, agent, streams })
    }

    /// The client of a link's server.
    ///
    /// # Errors
    /// As [`Client::new`].
    pub fn for_link(link: &Link) -> Result<Client, ClientError> {
        Client::new(&link.base)
    }

    /// The server's address.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/v1/games{path}", self.base)
    }

    /// Reads a 2xx answer's JSON; anything else is the refusal it says.
    fn read<T: DeserializeOwned>(
        what: &str,
        answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<T, ClientError> {
        let mut answer =
            answer.map_err(|source| ClientError::Connection { what: what.into(), source })?;
        let status = answer.status().as_u16();
        let body = answer.body_mut();
        if !(200..300).contains(&status) {
            return Err(refusal(status, body));
        }
        let bytes = body.with_config().limit(MAX_ANSWER).read_to_vec().map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => {
                ClientError::BadAnswer { what: what.into(), source: AnswerError::TooLong }
            }
            source => ClientError::Connection { what: what.into(), source },
        })?;
        serde_json::from_slice(&bytes)
            .map_err(|e| ClientError::BadAnswer { what: what.into(), source: AnswerError::Json(e) })
    }

    fn post<T: DeserializeOwned>(
        &self,
        what: &str,
        path: &str,
        token: Option<&Token>,
        body: &str,
    ) -> Result<T, ClientError> {
        let mut request =
            self.agent.post(self.url(path)).header("Content-Type", "application/json");
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Client::read(what, request.send(body))
    }

    /// Creates a game (`POST /api/v1/games`): its id, each friend's seat, its watch link.
    ///
    /// # Errors
    /// [`ClientError::Refused`] (`422` an unknown player or clock, `429` too many games),
    /// or a failed connection or answer.
    pub fn create(&self, game: &NewGame) -> Result<CreatedGame, ClientError> {
        let body = serde_json::to_string(game).map_err(|e| ClientError::BadAnswer {
            what: "a new game".into(),
            source: AnswerError::Json(e),
        })?;
        self.post("creating a game", "", None, &body)
    }

    /// The game (`GET /api/v1/games/{id}`).
    ///
    /// # Errors
    /// [`ClientError::Refused`] (`404` no such game), or a failed connection or answer.
    pub fn game(&self, id: GameId) -> Result<GameView, ClientError> {
        Client::read("reading the game", self.agent.get(self.url(&format!("/{id}"))).call())
    }

    /// Game `id` as the seat of `token` sees it: with `you`, the side the token plays (as
    /// [`Client::game`] without a token).
    ///
    /// # Errors
    /// As [`Client::game`], and `401` for a token that holds no seat in the game.
    pub fn game_as(&self, id: GameId, token: Option<&Token>) -> Result<GameView, ClientError> {
        let mut request = self.agent.get(self.url(&format!("/{id}")));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Client::read("reading the game", request.call())
    }

    /// Plays `mv` (in the project's notation) for the token's seat; the game after it.
    ///
    /// # Errors
    /// [`ClientError::Refused`]: `401` the token holds no seat, `404` no such game, `409`
    /// the other side's turn or the game is over, `422` not a legal move, `429` too fast.
    pub fn play(&self, id: GameId, token: &Token, mv: &str) -> Result<GameView, ClientError> {
        let body = serde_json::json!({ "move": mv }).to_string();
        self.post("a move", &format!("/{id}/move"), Some(token), &body)
    }

    /// The token's side resigns.
    ///
    /// # Errors
    /// As [`Client::play`] (`409` once the game is over).
    pub fn resign(&self, id: GameId, token: &Token) -> Result<GameView, ClientError> {
        self.post("resigning", &format!("/{id}/resign"), Some(token), "{}")
    }

    /// Offers a draw, or accepts the opponent's offer.
    ///
    /// # Errors
    /// As [`Client::play`] (`409` when this side already offers, or the game is over).
    pub fn draw(&self, id: GameId, token: &Token) -> Result<GameView, ClientError> {
        self.post("a draw offer", &format!("/{id}/draw"), Some(token), "{}")
    }

    /// Claims the win from an opponent who has been gone for the server's time.
    ///
    /// # Errors
    /// As [`Client::play`] (`409` before the opponent has been gone long enough).
    pub fn claim(&self, id: GameId, token: &Token) -> Result<GameView, ClientError> {
        self.post("a claim", &format!("/{id}/claim"), Some(token), "{}")
    }

    /// Asks for a rematch, or accepts the opponent's request, once the game is over.
    ///
    /// # Errors
    /// As [`Client::play`] (`409` while the game goes on).
    pub fn rematch(&self, id: GameId, token: &Token) -> Result<GameView, ClientError> {
        self.post("a rematch", &format!("/{id}/rematch"), Some(token), "{}")
    }

    /// The game's events after number `since` (0: all of them), then each new one as it
    /// happens, until the server ends the stream (after the game's end, once no rematch can
    /// come). With the seat's `token`, the open stream counts as the seat being here.
    ///
    /// The stream is opened on the first call to `next`. A dropped connection is opened again
    /// from the last event seen, so that no event is lost or given twice.
    pub fn events(&self, id: GameId, since: u64, token: Option<Token>) -> Events {
        Events {
            client: self.clone(),
            id,
            token,
            last: since,
            ended: false,
            reader: None,
            failures: 0,
            done: false,
        }
    }

    fn open_stream(
        &self,
        id: GameId,
        since: u64,
        token: Option<&Token>,
    ) -> Result<BufReader<ureq::BodyReader<'static>>, ClientError> {
        let what = "following the game";
        let mut request =
            self.streams.get(self.url(&format!("/{id}/stream"))).query("since", since.to_string());
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let answer = request
            .call()
            .map_err(|source| ClientError::Connection { what: what.into(), source })?;
        let status = answer.status().as_u16();
        let mut body = answer.into_body();
        if !(200..300).contains(&status) {
            return Err(refusal(status, &mut body));
        }
        Ok(BufReader::new(body.into_reader()))
    }
}

/// A game's events as they come: an iterator of each event in order, none lost and none twice,
/// over however many connections it takes. Made by [`Client::events`].
pub struct Events {
    client: Client,
    id: GameId,
    token: Option<Token>,
    /// The number of the last event given (or the `since` asked for).
    last: u64,
    /// Whether the game's end (or its rematch) has been given: a stream that ends after it is
    /// over, not dropped.
    ended: bool,
    reader: Option<BufReader<ureq::BodyReader<'static>>>,
    /// Connections that failed in a row.
    failures: u32,
    done: bool,
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Events")
            .field("game", &self.id)
            .field("last", &self.last)
            .field("connected", &self.reader.is_some())
            .finish_non_exhaustive()
    }
}

/// What one read of the stream gave.
enum Line {
    /// A line, without its end.
    Text(Vec<u8>),
    /// The server ended the stream.
    End,
    /// The connection dropped (or was silent too long).
    Dropped(std::io::Error),
    /// A line longer than [`MAX_LINE`].
    TooLong,
}

fn read_line(reader: &mut BufReader<ureq::BodyReader<'static>>) -> Line {
    let mut line = Vec::new();
    let limit = u64::try_from(MAX_LINE).unwrap_or(u64::MAX) + 1;
    match reader.by_ref().take(limit).read_until(b'\n', &mut line) {
        Ok(0) => Line::End,
        Ok(_) if line.last() == Some(&b'\n') => {
            line.pop();
            Line::Text(line)
        }
        Ok(_) if line.len() > MAX_LINE => Line::TooLong,
        Ok(_) => Line::Dropped(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the stream was cut in the middle of a line",
        )),
        Err(e) => Line::Dropped(e),
    }
}

/// Whether a stream that could not be opened is worth opening again: a failed connection, or
/// a server that is busy or failing (5xx). Its other refusals (no such game, a bad token)
/// stand.
fn passing(error: &ClientError) -> bool {
    match error {
        ClientError::Connection { .. } => true,
        ClientError::Refused { status, .. } => *status >= 500,
        _ => false,
    }
}

impl Events {
    /// The number of the last event given (or the `since` asked for, before any).
    pub fn last(&self) -> u64 {
        self.last
    }

    /// Ends the iteration with `error`.
    fn fail(&mut self, error: ClientError) -> Result<Event, ClientError> {
        self.done = true;
        self.reader = None;
        Err(error)
    }

    /// Ends the iteration with an answer that does not read.
    fn bad(&mut self, source: AnswerError) -> Result<Event, ClientError> {
        self.fail(ClientError::BadAnswer { what: "following the game".into(), source })
    }

    /// Waits before the next connection after a failure; `false` when the tries are spent.
    fn back_off(&mut self) -> bool {
        self.failures += 1;
        if self.failures > STREAM_TRIES {
            return false;
        }
        std::thread::sleep(FIRST_BACKOFF * 2u32.pow(self.failures - 1));
        true
    }

    /// Whether a stream the server ended is the game's real end: the game is over and has
    /// no event after the last given.
    fn really_over(&self) -> Result<bool, ClientError> {
        let game = self.client.game(self.id)?;
        Ok(game.result.is_some() && game.version <= self.last)
    }
}

impl Iterator for Events {
    type Item = Result<Event, ClientError>;

    fn next(&mut self) -> Option<Result<Event, ClientError>> {
        loop {
            if self.done {
                return None;
            }
            let Some(reader) = self.reader.as_mut() else {
                match self.client.open_stream(self.id, self.last, self.token.as_ref()) {
                    Ok(reader) => self.reader = Some(reader),
                    Err(e) if passing(&e) && self.back_off() => {}
                    Err(e) => return Some(self.fail(e)),
                }
                continue;
            };
            let text = match read_line(reader) {
                Line::Text(text) => text,
                Line::TooLong => return Some(self.bad(AnswerError::LineTooLong)),
                Line::Dropped(cause) => {
                    self.reader = None;
                    if !self.back_off() {
                        let what = "following the game".into();
                        return Some(self.fail(ClientError::Connection {
                            what,
                            source: ureq::Error::Io(cause),
                        }));
                    }
                    continue;
                }
                Line::End => {
                    self.reader = None;
                    if self.ended {
                        self.done = true;
                        return None;
                    }
                    // Ended before the game did: a server that stopped, or one that says the
                    // game is over and has nothing more to send.
                    match self.really_over() {
                        Ok(true) => {
                            self.done = true;
                            return None;
                        }
                        Ok(false) if self.back_off() => continue,
                        Ok(false) => {
                            return Some(self.bad(AnswerError::EndedEarly { at: self.last }));
                        }
                        Err(e) => return Some(self.fail(e)),
                    }
                }
            };
            let text = text.trim_ascii();
            // `{}`: the connection is alive.
            if text.is_empty() || text == b"{}" {
                self.failures = 0;
                continue;
            }
            let event: Event = match serde_json::from_slice(text) {
                Ok(event) => event,
                Err(e) => return Some(self.bad(AnswerError::Json(e))),
            };
            if event.version != self.last + 1 {
                return Some(
                    self.bad(AnswerError::OutOfOrder { after: self.last, got: event.version }),
                );
            }
            self.failures = 0;
            self.last = event.version;
            if event.kind.ends() || matches!(event.kind, EventKind::Rematch { .. }) {
                self.ended = true;
            }
            return Some(Ok(event));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "3f0c0123456789abcdef0123456789ab";

    #[test]
    fn seat_and_watch_links_read() {
        let link = Link::parse(&format!("http://127.0.0.1:8080/play/q7Rk2mWx9a#{TOKEN}")).unwrap();
        assert_eq!(link.base, "http://127.0.0.1:8080");
        assert_eq!(link.game.as_str(), "q7Rk2mWx9a");
        assert_eq!(link.token.unwrap().to_string(), TOKEN);
        let link = Link::parse("  http://example.org/play/q7Rk2mWx9a\n").unwrap();
        assert_eq!((link.base.as_str(), link.token), ("http://example.org", None));
        let link = Link::parse("http://[::1]:9000/tns/play/q7Rk2mWx9a/").unwrap();
        assert_eq!(link.base, "http://[::1]:9000/tns");
        // The token is upper or lower case, as the token reads it.
        let link = Link::parse(&format!("http://h/play/q7Rk2mWx9a#{}", TOKEN.to_uppercase()));
        assert_eq!(link.unwrap().token.unwrap().to_string(), TOKEN);
    }

    #[test]
    fn bad_links_say_what_is_wrong_and_never_show_the_token() {
        let cases = [
            (format!("https://example.org/play/q7Rk2mWx9a#{TOKEN}"), LinkError::NotHttp),
            ("example.org/play/q7Rk2mWx9a".into(), LinkError::NotHttp),
            (String::new(), LinkError::NotAGame),
            ("http://example.org/".into(), LinkError::NotAGame),
            ("http://example.org/game/q7Rk2mWx9a".into(), LinkError::NotAGame),
            ("http:///play/q7Rk2mWx9a".into(), LinkError::Host),
            ("http://ex ample.org/play/q7Rk2mWx9a".into(), LinkError::Host),
            ("http://user@example.org/play/q7Rk2mWx9a".into(), LinkError::Host),
            ("http://example.org/a?b/play/q7Rk2mWx9a".into(), LinkError::Path),
            ("http://example.org/play/q7Rk2".into(), LinkError::Id(ParseGameIdError)),
            ("http://example.org/play/q7Rk2mWx9a?x".into(), LinkError::Id(ParseGameIdError)),
            ("http://example.org/play/q7Rk2mWx9a#".into(), LinkError::Token(ParseTokenError)),
            ("http://example.org/play/q7Rk2mWx9a#abc".into(), LinkError::Token(ParseTokenError)),
            (
                format!("http://example.org/play/q7Rk2mWx9a#{TOKEN}0"),
                LinkError::Token(ParseTokenError),
            ),
            (format!("http://{}/play/q7Rk2mWx9a", "a".repeat(MAX_LINK)), LinkError::TooLong),
        ];
        for (text, expected) in cases {
            let error = Link::parse(&text).unwrap_err();
            assert_eq!(error, expected, "{text:?}");
            assert!(!error.to_string().contains(TOKEN), "{error}");
        }
        let link = Link::parse(&format!("http://h/play/q7Rk2mWx9a#{TOKEN}")).unwrap();
        assert!(!format!("{link:?}").contains(TOKEN));
    }

    #[test]
    fn a_client_takes_a_server_address() {
        assert_eq!(Client::new("http://127.0.0.1:8080/").unwrap().base(), "http://127.0.0.1:8080");
        assert_eq!(Client::new(" http://h/tns ").unwrap().base(), "http://h/tns");
        for bad in ["https://h", "h:8080", "http://", "http://h/?x"] {
            assert!(matches!(Client::new(bad), Err(ClientError::BadLink(_))), "{bad}");
        }
    }
}
