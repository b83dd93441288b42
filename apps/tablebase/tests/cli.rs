//! The `tns-tablebase` command line on the 1-kill variant (it builds in seconds): building the
//! last placement layers, probing, counting, verifying, and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tns-tablebase")).args(args).output().expect("it runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A directory with the 1-kill table and its layers from 18 placed, built once.
fn dir() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tns-tb-cli-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out =
            run(&["--kills", "1", "--dir", dir.to_str().unwrap(), "build", "--from-placed", "18"]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stderr}");
        assert!(stdout.contains("layer 18 placed: built in"), "{stdout}");
        assert!(stdout.contains("placement layers 18 to 19 placed are in"), "{stdout}");
        // The movement build ends with where its files went and their size.
        let done = stdout.lines().find(|l| l.starts_with("movement phase: 1 slices in ")).unwrap();
        assert!(
            done.contains(dir.to_str().unwrap()) && done.contains(" MB of slice files"),
            "{done}"
        );
        dir
    })
    .to_str()
    .unwrap()
}

fn table(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["--kills", "1", "--dir", dir()];
    all.extend_from_slice(args);
    let out = run(&all);
    let (stdout, stderr) = text(&out);
    (out.status.success(), stdout, stderr)
}

#[test]
fn a_second_build_finds_the_layers_and_builds_nothing() {
    let (ok, stdout, stderr) = table(&["build", "--from-placed", "18"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("layer 19 placed: already built"), "{stdout}");
    assert!(stdout.contains("layer 18 placed: already built"), "{stdout}");
    assert!(!stdout.contains("placed: built in"), "{stdout}");
}

#[test]
fn probe_answers_with_sheep_in_hand_and_lists_every_move() {
    // One sheep in hand; the tigers to move can jump: the tigers win the 1-kill game at once.
    let (ok, stdout, stderr) = table(&["probe", "TS1ST/SSSSS/SSSSS/SSSSS/T1SST t 1"]);
    assert!(ok, "{stderr}");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("TS1ST/SSSSS/SSSSS/SSSSS/T1SST t 1: Tigers win (win for the side to move)")
    );
    let first = lines.next().unwrap();
    assert!(
        first.trim_start().starts_with("a5xc5") && first.ends_with("Tigers win in 1"),
        "{first}"
    );
    // A position before the built layers, and bad input, are clear errors.
    let (ok, _, stderr) = table(&["probe", "T3T/5/2S2/5/T3T t 19"]);
    assert!(!ok);
    assert!(stderr.contains("the placement layers are built from 18 placed"), "{stderr}");
    let (ok, _, stderr) = table(&["probe", "T3T/5/5/5/T3T x 20"]);
    assert!(!ok);
    assert!(stderr.contains("bad position"), "{stderr}");
}

#[test]
fn stats_and_verify_cover_the_layers() {
    let (ok, stdout, stderr) = table(&["stats"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("placed dead"), "{stdout}");
    assert!(stdout.lines().any(|l| l.trim_start().starts_with("all") && l.contains("both")));
    let (ok, stdout, stderr) = table(&["verify", "--placement-only"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("placement layers 18 to 19 placed verified"), "{stdout}");
    let (ok, stdout, stderr) = table(&["verify", "--placement-only", "--sample", "100"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("200 positions agree"), "{stdout}");
}

#[test]
fn bad_arguments_are_refused_before_any_work() {
    let (ok, _, stderr) = table(&["build", "--from-placed", "20"]);
    assert!(!ok);
    assert!(stderr.contains("--from-placed"), "{stderr}");
    let (ok, _, stderr) = table(&["verify", "--layers", "9-3"]);
    assert!(!ok);
    assert!(stderr.contains("expected layers A-B"), "{stderr}");
    let (ok, _, stderr) =
        table(&["examples", "--placed", "18", "--side", "goats", "--result", "win"]);
    assert!(!ok);
    assert!(stderr.contains("expected sheep or tigers"), "{stderr}");
    let args = ["examples", "--placed", "18", "--side", "sheep", "--result", "win", "--count", "0"];
    let (ok, stdout, stderr) = table(&args);
    assert!(!ok && stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("from 1"), "{stderr}");
}

#[test]
fn a_missing_table_says_how_to_build_one() {
    let dir = std::env::temp_dir().join(format!("tns-no-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tns-tablebase"))
        .args(["--dir", dir.to_str().unwrap(), "probe", "T3T/5/5/5/T3T s 20"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no table in") && err.contains("tns-tablebase build --dir"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_of_an_earlier_format_says_to_build_it_again_and_build_does() {
    let dir = std::env::temp_dir().join(format!("tns-old-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    assert!(run(&["--kills", "1", "--dir", d, "build"]).status.success());
    let slice = dir.join("k1-d0.tnstb");
    let mut bytes = std::fs::read(&slice).unwrap();
    let built = bytes.clone();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&slice, bytes).unwrap();
    let (stdout, stderr) = text(&run(&["--kills", "1", "--dir", d, "probe", "T3T/5/5/5/T3T s 20"]));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("format version 1") && stderr.contains("reads version 2"), "{stderr}");
    assert!(stderr.contains("tns-tablebase build --dir"), "{stderr}");
    let out = run(&["--kills", "1", "--dir", d, "build"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("slice 0 dead: an earlier format; building it again"), "{stdout}");
    assert_eq!(std::fs::read(&slice).unwrap(), built);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of the built table's folder, to damage.
fn copy_of_table(name: &str) -> PathBuf {
    let copy = std::env::temp_dir().join(format!("tns-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(dir()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name().to_string_lossy().starts_with("k1-") {
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
    }
    copy
}

#[test]
fn a_damaged_placement_layer_is_built_again() {
    let copy = copy_of_table("damaged-layer");
    let d = copy.to_str().unwrap();
    let layer = copy.join("k1-p19.tnspl");
    let built = std::fs::read(&layer).unwrap();
    let mut damages: Vec<(String, Vec<u8>)> = vec![
        ("emptied".into(), Vec::new()),
        ("cut to 5 bytes".into(), built[..5].to_vec()),
        ("cut in half".into(), built[..built.len() / 2].to_vec()),
    ];
    for at in [0, 12, 13, 20, 40] {
        let mut flipped = built.clone();
        flipped[at] ^= 0x10;
        damages.push((format!("byte {at} flipped"), flipped));
    }
    for (what, bytes) in damages {
        std::fs::write(&layer, &bytes).unwrap();
        let out = run(&["--kills", "1", "--dir", d, "build", "--from-placed", "18"]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{what}: {stderr}");
        assert!(stdout.contains("layer 19 placed: damaged ("), "{what}: {stdout}");
        assert!(stdout.contains("layer 18 placed: already built"), "{what}: {stdout}");
        assert!(std::fs::read(&layer).unwrap() == built, "{what}: built again to the same bytes");
    }
    std::fs::remove_dir_all(&copy).unwrap();
}

#[cfg(unix)]
#[test]
fn links_that_loop_or_lead_nowhere_are_errors_not_skipped_or_written_through() {
    let copy = copy_of_table("links");
    let d = copy.to_str().unwrap();
    let layer = copy.join("k1-p18.tnspl");
    // A loop of links where a layer stands: every command that reads the table says so.
    std::fs::remove_file(&layer).unwrap();
    std::os::unix::fs::symlink("k1-p18.tnspl", &layer).unwrap();
    for args in [vec!["verify", "--checksums"], vec!["stats"], vec!["probe", "T3T/5/5/5/T3T s 20"]]
    {
        let mut all = vec!["--kills", "1", "--dir", d];
        all.extend_from_slice(&args);
        let out = run(&all);
        let (stdout, stderr) = text(&out);
        assert!(!out.status.success(), "{args:?}: {stdout}");
        assert!(!stdout.contains("every block agrees"), "{args:?}: {stdout}");
        assert!(stderr.contains("k1-p18.tnspl"), "{args:?}: {stderr}");
    }
    // A link that leads out of the folder to nothing: the build does not write through it.
    let outside = std::env::temp_dir().join(format!("tns-tb-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::remove_file(&layer).unwrap();
    std::os::unix::fs::symlink(outside.join("k1-p18.tnspl"), &layer).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let out = run(&["--kills", "1", "--dir", d, "build", "--from-placed", "18"]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("k1-p18.tnspl") && stderr.contains("does not exist"), "{stderr}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing made outside");
    std::fs::remove_dir_all(&outside).unwrap();
    std::fs::remove_dir_all(&copy).unwrap();
}

#[test]
fn verify_refuses_a_folder_with_parts_it_cannot_reach() {
    // The top layer gone: the layer below it is there but nothing can verify or use it.
    let copy = copy_of_table("stranded");
    let d = copy.to_str().unwrap();
    std::fs::remove_file(copy.join("k1-p19.tnspl")).unwrap();
    for args in [vec!["verify"], vec!["verify", "--placement-only"], vec!["verify", "--checksums"]]
    {
        let mut all = vec!["--kills", "1", "--dir", d];
        all.extend_from_slice(&args);
        let out = run(&all);
        let (stdout, stderr) = text(&out);
        assert!(!out.status.success(), "{args:?}: {stdout}");
        assert!(
            stderr.contains("layers of 18 placed are there but cannot be verified"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&copy).unwrap();
    // The movement phase gone, the layers left: the checksums of what is there are not enough.
    let copy = copy_of_table("no-slice");
    let d = copy.to_str().unwrap();
    std::fs::remove_file(copy.join("k1-d0.tnstb")).unwrap();
    let out = run(&["--kills", "1", "--dir", d, "verify", "--checksums"]);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(stderr.contains("slices of 0 dead are missing"), "{stderr}");
    std::fs::remove_dir_all(&copy).unwrap();
}
