//! Anchors rated among themselves. The fixed players of a run's Elo scale
//! (`[eval] anchors`) otherwise meet only the checkpoints, so their
//! ratings rest on those games and one virtual draw each (a one-hour run
//! rated `greedy` below `random`). Once per anchor set, rule set and
//! settings, they play a round robin of `[eval] anchor_games` games a
//! pairing (`jungle tournament`'s games); the games are cached under
//! `ROOT/anchors/` and every Elo fit of every run with those anchors
//! includes them.

use crate::config::EvalSection;
use crate::error::TrainError;
use crate::matches::{read_matches, MatchLine};
use indicatif::ProgressBar;
use jungle_play::arena::{run_match, ArenaConfig};
use jungle_play::tournament::pairings;
use jungle_rules::RuleMixture;
use jungle_rules::Rules;
use std::path::{Path, PathBuf};

/// The seed of the anchors' games (the same for every run, so the games
/// are shared).
const ANCHOR_SEED: u64 = 0x616e_6368_6f72;

/// FNV-1a, 64 bits: a name for the settings that is the same on every
/// machine and Rust version.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The cache file of the anchors' games under `dir` for these settings:
/// the anchors (in order), the rule set, the games per pairing and the
/// opening plies name it.
pub fn anchor_file(dir: &Path, eval: &EvalSection, rules: &Rules) -> PathBuf {
    let key = format!(
        "{}\n{}\n{}\n{}",
        eval.anchors.join("\n"),
        rules.to_toml(),
        eval.anchor_games,
        eval.opening_plies
    );
    dir.join(format!("anchors-{:016x}.jsonl", fnv1a(&key)))
}

/// The anchors' games for these settings, if they were played (none when
/// `anchor_games` is 0 or the file is missing).
pub fn read_anchor_games(
    dir: &Path,
    eval: &EvalSection,
    rules: &Rules,
) -> Result<Vec<MatchLine>, TrainError> {
    if eval.anchor_games == 0 {
        return Ok(Vec::new());
    }
    Ok(read_matches(&anchor_file(dir, eval, rules))?.0)
}

/// The anchors' games among themselves under each rule set of `mixture`
/// ([`play_anchor_games`] for each, the same progress bar).
pub fn play_mixture_anchor_games(
    dir: &Path,
    eval: &EvalSection,
    mixture: &RuleMixture,
    bar: &ProgressBar,
) -> Result<(), TrainError> {
    for v in 0..mixture.len() {
        play_anchor_games(dir, eval, mixture.rules(v), bar)?;
    }
    Ok(())
}

/// Plays the pairings whose games are not in the cache yet (each pairing
/// written as it finishes, so a killed run replays only the pairing it was
/// in) and returns all the anchors' games.
pub fn play_anchor_games(
    dir: &Path,
    eval: &EvalSection,
    rules: &Rules,
    bar: &ProgressBar,
) -> Result<Vec<MatchLine>, TrainError> {
    if eval.anchor_games == 0 {
        return Ok(Vec::new());
    }
    let path = anchor_file(dir, eval, rules);
    let mut lines = read_matches(&path)?.0;
    let pairs = pairings(eval.anchors.len(), None);
    let missing: Vec<(usize, usize)> = pairs
        .into_iter()
        .filter(|&(i, j)| {
            !lines
                .iter()
                .any(|l| l.a == eval.anchors[i] && l.b == eval.anchors[j])
        })
        .collect();
    if missing.is_empty() {
        return Ok(lines);
    }
    std::fs::create_dir_all(dir).map_err(TrainError::io(dir))?;
    bar.set_length(missing.len() as u64 * u64::from(eval.anchor_games));
    for (i, j) in missing {
        let (a, b) = (&eval.anchors[i], &eval.anchors[j]);
        bar.set_message(format!("{a} vs {b}"));
        let pa = jungle_play::load_player(a)?;
        let pb = jungle_play::load_player(b)?;
        let mut cfg = ArenaConfig::new(rules.clone(), eval.anchor_games, ANCHOR_SEED);
        cfg.opening_plies = eval.opening_plies;
        let records = run_match(pa.as_ref(), pb.as_ref(), &cfg, &|_| bar.inc(1));
        lines.extend(records.iter().map(|r| MatchLine::of_game(0, a, b, r, None)));
        let mut text = String::new();
        for line in &lines {
            text.push_str(&serde_json::to_string(line).expect("serialises"));
            text.push('\n');
        }
        jungle_files::write_atomically(&path, text.as_bytes()).map_err(TrainError::io(&path))?;
    }
    bar.finish_and_clear();
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_play::elo::fit_elo;

    fn eval(anchors: &[&str], games: u32) -> EvalSection {
        EvalSection {
            anchors: anchors.iter().map(|a| a.to_string()).collect(),
            anchor_games: games,
            ..crate::config::TrainConfig::default_config().eval
        }
    }

    #[test]
    fn the_anchors_play_once_and_the_file_names_their_settings() {
        let dir = std::env::temp_dir().join(format!("jungle-anchors-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = Rules::default();
        let e = eval(&["random", "greedy", "alphabeta:1"], 6);
        let bar = ProgressBar::hidden();
        let games = play_anchor_games(&dir, &e, &rules, &bar).unwrap();
        assert_eq!(games.len(), 18);
        assert_eq!(read_anchor_games(&dir, &e, &rules).unwrap(), games);
        // Played once: a second call reads them.
        let file = anchor_file(&dir, &e, &rules);
        let written = std::fs::metadata(&file).unwrap().modified().unwrap();
        assert_eq!(play_anchor_games(&dir, &e, &rules, &bar).unwrap(), games);
        assert_eq!(
            std::fs::metadata(&file).unwrap().modified().unwrap(),
            written
        );
        // Other settings, another file; 0 games, none.
        assert_ne!(
            anchor_file(&dir, &eval(&["random", "greedy"], 6), &rules),
            file
        );
        assert_ne!(
            anchor_file(&dir, &eval(&["random", "greedy", "alphabeta:1"], 8), &rules),
            file
        );
        assert!(read_anchor_games(&dir, &eval(&["random"], 0), &rules)
            .unwrap()
            .is_empty());
        // Rated among themselves, greedy is above random.
        let results: Vec<_> = games.iter().map(MatchLine::result).collect();
        let ratings = fit_elo(&results, "random").unwrap();
        let elo = |p: &str| ratings.iter().find(|r| r.player == p).unwrap().elo;
        assert!(
            elo("greedy") > 0.0 && elo("alphabeta:1") > 0.0,
            "{ratings:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
