//! The grammar of a player spec: `KIND[:OPTION=VALUE,...]` or `cmd:PROGRAM [ARGS]` (the module
//! `spec` says what each part means). Reading a spec touches nothing outside its text but in
//! [`kind_of`]: the network built in (decoded once) and a weights file the spec names, loaded
//! here so that every program says at once what is wrong with it.

use std::str::FromStr;
use std::sync::Arc;

use tns_nn::Network;

use crate::error::PlayerError;
use crate::external::External;
use crate::level::Level;
use crate::limit;
use crate::shipped::shipped_network_shared;
use crate::spec::{PlayerKind, PlayerSpec, WEIGHT_KEYS, weight_mut};

const LIMIT_KEYS: &str = "time, depth, threads, tt";
/// `on` or `off`, as the options `traps`, `table` and `endgame` take.
fn on_off(key: &str, value: &str) -> Result<bool, PlayerError> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(PlayerError::Value { key: key.into(), value: value.into(), why: "on or off" }),
    }
}

fn parse_value<T: FromStr>(key: &str, value: &str, why: &'static str) -> Result<T, PlayerError> {
    value.parse().map_err(|_| PlayerError::Value { key: key.into(), value: value.into(), why })
}

/// The player a spec's first word names, with the kind's defaults: a built-in kind, or a
/// weights file (named by its path as written).
fn kind_of(word: &str, spec: &str) -> Result<PlayerSpec, PlayerError> {
    Ok(match word {
        "heuristic" => PlayerSpec::heuristic(),
        "perfect" => PlayerSpec::perfect(),
        "random" => PlayerSpec::new(PlayerKind::Random),
        "network" => PlayerSpec::new(PlayerKind::Network(shipped_network_shared()?)),
        _ if std::path::Path::new(word).is_file() => {
            let net = Network::load(std::path::Path::new(word))
                .map_err(|e| PlayerError::Network(Arc::new(e)))?;
            PlayerSpec::neural(word, Arc::new(net))
        }
        _ => return Err(PlayerError::Unknown(spec.into())),
    })
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerError> {
        if let Some(command) = s.strip_prefix("cmd:") {
            return external_spec(command);
        }
        // A level's name stands for its spec: the same player as the spec, named alike.
        if let Some(expanded) = Level::expand(s) {
            return expanded.parse();
        }
        let (kind_text, options) = s.split_once(':').unwrap_or((s, ""));
        let mut spec = kind_of(kind_text, s)?;
        let mut kind = std::mem::replace(&mut spec.kind, PlayerKind::Random);
        let expected: String = match kind {
            PlayerKind::Heuristic(_) => format!(
                "{LIMIT_KEYS}, table, endgame or calibrated (on or off) or a weight ({})",
                WEIGHT_KEYS.join(", ")
            ),
            PlayerKind::Perfect { .. } => {
                format!("{LIMIT_KEYS}, traps (on or off) or a weight ({})", WEIGHT_KEYS.join(", "))
            }
            PlayerKind::Network(_) => {
                format!("{LIMIT_KEYS}, table, endgame or calibrated (on or off)")
            }
            PlayerKind::Random | PlayerKind::External(_) => "no options".into(),
        };
        for option in options.split(',').filter(|o| !o.is_empty()) {
            let bad_option = || PlayerError::Option {
                option: option.into(),
                kind: kind_text.into(),
                expected: expected.clone(),
            };
            let (key, value) = option.split_once('=').ok_or_else(bad_option)?;
            if matches!(kind, PlayerKind::Random) {
                return Err(bad_option());
            }
            match key {
                "time" => spec.time = Some(limit::seconds(value)?),
                "depth" => spec.depth = Some(limit::depth(value)?),
                "threads" => spec.threads = Some(limit::threads(value)?),
                "tt" => spec.tt_mb = Some(limit::hash_mb(value)?),
                "traps" => {
                    let PlayerKind::Perfect { traps, .. } = &mut kind else {
                        return Err(bad_option());
                    };
                    *traps = on_off(key, value)?;
                }
                "table" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Network(_)) {
                        return Err(bad_option());
                    }
                    spec.table = on_off(key, value)?;
                }
                "endgame" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Network(_)) {
                        return Err(bad_option());
                    }
                    spec.endgame = on_off(key, value)?;
                }
                "calibrated" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Network(_)) {
                        return Err(bad_option());
                    }
                    spec.calibrated = on_off(key, value)?;
                }
                _ => {
                    let (PlayerKind::Heuristic(weights) | PlayerKind::Perfect { weights, .. }) =
                        &mut kind
                    else {
                        return Err(bad_option());
                    };
                    let slot = weight_mut(weights, key).ok_or_else(bad_option)?;
                    *slot = parse_value(key, value, "a whole number (hundredths of a sheep)")?;
                }
            }
        }
        spec.kind = kind;
        Ok(spec)
    }
}

/// A `cmd:` spec: the program and its arguments, with the words `name=`, `option.NAME=`,
/// `time=`, `depth=`, `threads=` and `tt=` taken as the runner's settings for it.
fn external_spec(command: &str) -> Result<PlayerSpec, PlayerError> {
    let mut spec = PlayerSpec::new(PlayerKind::Random);
    let mut external = External { command: Vec::new(), options: Vec::new(), name: None };
    for word in command.split_whitespace() {
        let setting = word.split_once('=').filter(|(key, _)| {
            matches!(*key, "name" | "time" | "depth" | "threads" | "tt")
                || key.starts_with("option.")
        });
        match setting {
            Some(("name", value)) => external.name = Some(value.to_string()),
            Some(("time", value)) => spec.time = Some(limit::seconds(value)?),
            Some(("depth", value)) => spec.depth = Some(limit::depth(value)?),
            Some(("threads", value)) => spec.threads = Some(limit::threads(value)?),
            Some(("tt", value)) => spec.tt_mb = Some(limit::hash_mb(value)?),
            Some((key, value)) => {
                let option = key.trim_start_matches("option.");
                if option.is_empty() {
                    return Err(PlayerError::Option {
                        option: word.into(),
                        kind: "cmd".into(),
                        expected: "option.NAME=VALUE".into(),
                    });
                }
                external.options.push((option.to_string(), value.to_string()));
            }
            None => external.command.push(word.to_string()),
        }
    }
    if external.command.is_empty() {
        return Err(PlayerError::NoProgram);
    }
    spec.kind = PlayerKind::External(external);
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use tns_board::Game;
    use tns_search::Weights;

    use super::*;
    use crate::player::Budget;
    use crate::shipped::shipped_network;

    #[test]
    fn parses_kinds_limits_and_weights() {
        assert_eq!("heuristic".parse::<PlayerSpec>().unwrap(), PlayerSpec::heuristic());
        let spec: PlayerSpec = "heuristic:time=0.2,dead=350,in_hand=-5".parse().unwrap();
        assert_eq!(spec.time, Some(0.2));
        let PlayerKind::Heuristic(w) = spec.kind else { panic!("{spec:?}") };
        assert_eq!((w.dead, w.in_hand, w.trapped_tiger), (350, -5, Weights::DEFAULT.trapped_tiger));
        assert_eq!(spec.to_string(), "hard:time=0.2,dead=350,in_hand=-5");
        assert_eq!("random".parse::<PlayerSpec>().unwrap().kind, PlayerKind::Random);
        let traps: PlayerSpec = "perfect:traps=on,dead=300".parse().unwrap();
        let PlayerKind::Perfect { weights, traps: true } = traps.kind else { panic!("{traps:?}") };
        assert_eq!(weights.dead, 300);
        let plain: PlayerSpec = "perfect:traps=off".parse().unwrap();
        assert!(matches!(plain.kind, PlayerKind::Perfect { traps: false, .. }));
        assert_eq!(
            PlayerSpec::perfect().kind,
            PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false }
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert!(matches!(err("alphazero"), PlayerError::Unknown(_)));
        // The shipped network is built in: no file needed; it is the file in the repository.
        let on_disk = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("network.bin");
        assert_eq!(Network::load(&on_disk).unwrap(), shipped_network().unwrap());
        let net: PlayerSpec = "network:depth=3".parse().unwrap();
        assert!(matches!(&net.kind, PlayerKind::Network(n) if **n == shipped_network().unwrap()));
        assert_eq!((net.to_string().as_str(), net.depth), ("strongest:depth=3", Some(3)));
        assert!(matches!(err("heuristic:speed=3"), PlayerError::Option { .. }));
        assert!(matches!(err("heuristic:dead"), PlayerError::Option { .. }));
        assert!(matches!(err("random:time=1"), PlayerError::Option { .. }));
        assert!(matches!(err("heuristic:time=-1"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:time=NaN"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:depth=0"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:dead=lots"), PlayerError::Value { .. }));
        assert!(matches!(err("heuristic:threads=0"), PlayerError::Limit(_)));
        // The limits of every front end: the engine's Threads stops at 64, Hash at 4096.
        assert!(matches!(err("heuristic:threads=200"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:tt=99999999"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:depth=121"), PlayerError::Limit(_)));
        assert!(err("heuristic:tt=99999999").to_string().contains("from 1 to 4096"));
        assert!(matches!(err("cmd:"), PlayerError::NoProgram));
        let external: PlayerSpec = "cmd:./engine --fast".parse().unwrap();
        let command = vec!["./engine".to_string(), "--fast".to_string()];
        assert_eq!(
            external.kind,
            PlayerKind::External(External { command, options: Vec::new(), name: None })
        );
        assert_eq!(external.to_string(), "cmd:./engine --fast");
        // As cutechess names them: a name, options, limits; the rest is the command.
        let named: PlayerSpec =
            "cmd:./engine --fast name=fast option.Hash=64 option.Evaluator=heuristic:dead=300 depth=6"
                .parse()
                .unwrap();
        assert_eq!((named.to_string().as_str(), named.depth), ("fast", Some(6)));
        // Its whole spec, in the one order: the command, its options, its limits, its name.
        let whole = format!("{named:#}");
        assert_eq!(
            whole,
            "cmd:./engine --fast option.Hash=64 option.Evaluator=heuristic:dead=300 depth=6 name=fast"
        );
        assert_eq!(whole.parse::<PlayerSpec>().unwrap(), named);
        let PlayerKind::External(e) = &named.kind else { panic!() };
        assert_eq!(e.command, ["./engine", "--fast"]);
        assert_eq!(
            e.options,
            [("Hash".into(), "64".into()), ("Evaluator".into(), "heuristic:dead=300".into())]
        );
        assert!(matches!(err("cmd:./engine threads=65"), PlayerError::Limit(_)));
        assert!(matches!(err("cmd:name=x"), PlayerError::NoProgram));
        assert!(matches!(external.evaluator(None), Err(PlayerError::External(_))));
        // A file that is not a weights file says why.
        match err("Cargo.toml") {
            e @ PlayerError::Network(_) => {
                let cause = std::error::Error::source(&e).expect("the loader's error is kept");
                assert!(cause.to_string().contains("not a Tigers and Sheep weights"), "{cause}");
                assert!(e.to_string().starts_with("Cargo.toml: not a Tigers"), "{e}");
                assert!(!e.to_string().contains("Cargo.toml: Cargo.toml"), "said once: {e}");
            }
            other => panic!("{other:?}"),
        }
        // Traps are on or off, and only the perfect player sets them.
        assert!(matches!(err("perfect:traps=yes"), PlayerError::Value { why: "on or off", .. }));
        match err("heuristic:traps=on") {
            PlayerError::Option { option, .. } => assert_eq!(option, "traps=on"),
            other => panic!("{other:?}"),
        }
        let perfect: PlayerSpec = "perfect:dead=300".parse().unwrap();
        let budget = Budget { time: None, depth: Some(1), threads: 1, tt_mb: 1 };
        assert!(matches!(perfect.build(budget, None), Err(PlayerError::NoTablebase)));
    }

    #[test]
    fn a_weights_file_is_a_neural_player() {
        let path = std::env::temp_dir().join(format!("tns-bench-net-{}.bin", std::process::id()));
        let net = Network::new(&[8], 1).unwrap();
        net.save(&path).unwrap();
        let spec: PlayerSpec = format!("{}:depth=2", path.display()).parse().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(spec.depth, Some(2));
        let PlayerKind::Network(loaded) = &spec.kind else { panic!("{spec:?}") };
        assert_eq!(**loaded, net);
        let budget = Budget { time: None, depth: None, threads: 1, tt_mb: 1 };
        let mut player = spec.build(budget, None).unwrap();
        let game = Game::new();
        let m = player.choose(&game, &AtomicBool::new(false)).unwrap();
        assert!(game.board().check_move(m).is_ok());
    }
}
