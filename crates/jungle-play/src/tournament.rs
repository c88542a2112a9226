//! Tournaments: who plays whom (every pair, or a gauntlet of one player
//! against the others) and the crosstable of their results. The games are
//! the arena's ([`crate::arena`]): paired openings, seats alternating.

use crate::elo::RatedGame;
use std::collections::BTreeMap;

/// The pairings among `n` players, as (A, B) indices: every pair once in
/// a round robin, or `gauntlet` against each other player.
pub fn pairings(n: usize, gauntlet: Option<usize>) -> Vec<(usize, usize)> {
    match gauntlet {
        Some(p) => (0..n).filter(|&j| j != p).map(|j| (p, j)).collect(),
        None => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Wins, draws and losses of one player against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Adds a game scored `score` (1, 0.5 or 0).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score, 0 to 1 (`None` without games).
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0)
            .then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games()))
    }
}

/// Every player's tally against every other, from the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    /// The players, in the order given.
    pub players: Vec<String>,
    /// `cells[i][j]`: player i's results against player j.
    pub cells: Vec<Vec<Tally>>,
}

impl Crosstable {
    /// The crosstable of `players` over `games` (games of other players
    /// are left out).
    pub fn new(players: &[String], games: &[RatedGame]) -> Crosstable {
        let index: BTreeMap<&str, usize> = players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
        let n = players.len();
        let mut cells = vec![vec![Tally::default(); n]; n];
        for g in games {
            if let (Some(&a), Some(&b)) = (index.get(g.a.as_str()), index.get(g.b.as_str())) {
                cells[a][b].add(g.score_a);
                cells[b][a].add(1.0 - g.score_a);
            }
        }
        Crosstable {
            players: players.to_vec(),
            cells,
        }
    }

    /// Player i's results against everyone.
    pub fn total(&self, i: usize) -> Tally {
        self.cells[i].iter().fold(Tally::default(), |t, c| Tally {
            wins: t.wins + c.wins,
            draws: t.draws + c.draws,
            losses: t.losses + c.losses,
        })
    }

    /// The table as text: a row per player, its score against each
    /// column's player (`-` where they did not meet) and in all.
    pub fn to_text(&self) -> String {
        let width = self
            .players
            .iter()
            .map(|p| p.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut out = format!("{:>3}  {:width$}", "", "player");
        for j in 0..self.players.len() {
            out.push_str(&format!(" {:>6}", j + 1));
        }
        out.push_str("   score  games\n");
        for (i, name) in self.players.iter().enumerate() {
            out.push_str(&format!("{:>3}  {name:width$}", i + 1));
            for j in 0..self.players.len() {
                let cell = match self.cells[i][j].score() {
                    _ if i == j => "".to_string(),
                    Some(s) => format!("{s:.2}"),
                    None => "-".to_string(),
                };
                out.push_str(&format!(" {cell:>6}"));
            }
            let total = self.total(i);
            let score = total.score().map_or("-".into(), |s| format!("{s:.3}"));
            out.push_str(&format!("   {score:>5}  {:>5}\n", total.games()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robins_meet_every_pair_once_and_gauntlets_the_one() {
        assert_eq!(pairings(3, None), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, None).len(), 6);
        assert_eq!(pairings(4, Some(2)), [(2, 0), (2, 1), (2, 3)]);
        assert!(pairings(1, None).is_empty());
    }

    #[test]
    fn the_crosstable_counts_both_sides() {
        let players: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let game = |a: &str, b: &str, score_a| RatedGame {
            a: a.into(),
            b: b.into(),
            score_a,
        };
        let games = [
            game("a", "b", 1.0),
            game("b", "a", 0.5),
            game("a", "c", 0.0),
            game("x", "a", 1.0),
        ];
        let t = Crosstable::new(&players, &games);
        assert_eq!(
            t.cells[0][1],
            Tally {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(t.cells[1][0].score(), Some(0.25));
        assert_eq!(t.cells[2][0].wins, 1);
        assert_eq!(t.cells[1][2].games(), 0);
        assert_eq!(t.total(0).games(), 3);
        let text = t.to_text();
        assert!(text.contains("0.75") && text.contains(" - "), "{text}");
        assert_eq!(text.lines().count(), 4, "{text}");
    }
}
