//! The analysis server: queries in flight, their searches stepped in
//! rounds, each round's leaves of every query with the same player and
//! rule set judged in one evaluator call (one network batch), answers
//! written as each search finishes.

use super::answer::{from_decision, from_search, Answer};
use super::query::{Checked, Defaults, MAX_CACHED_PLAYERS};
use crate::line_reader::{read_lines, Peeked};
use jungle_mcts::{run_round, Evaluator, ParallelEvaluator, Search};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// The longest query line the server reads (a query with a thousand
/// moves is some kilobytes).
pub const MAX_QUERY_LINE: usize = 1024 * 1024;

/// A query being searched.
struct Job {
    query: Checked,
    search: Search,
    arrived: Instant,
}

/// The queries in flight with one player (under any rule sets: each
/// position is judged under its own), and the evaluator they share.
struct Group {
    evaluator: Box<dyn Evaluator + Send>,
    jobs: Vec<Job>,
}

/// What a server writes for one query.
pub enum Reply {
    /// The analysis.
    Answer(Box<Answer>),
    /// Why the query was refused, with its id.
    Error {
        /// The query's id (`null` when it has none).
        id: serde_json::Value,
        /// The reason.
        error: String,
    },
}

impl Reply {
    /// The JSON line.
    pub fn line(&self) -> String {
        match self {
            Reply::Answer(a) => serde_json::to_string(a).expect("answers serialize"),
            Reply::Error { id, error } => {
                serde_json::json!({ "id": id, "error": error }).to_string()
            }
        }
    }
}

/// Queries in flight and the players they use.
pub struct Analyzer {
    defaults: Defaults,
    groups: HashMap<String, Group>,
    in_flight: usize,
    threads: usize,
    /// Answers of the players that do not search, each asked on its own
    /// thread so that a long one (a deep `alphabeta:`) holds no other query.
    asked: (Sender<Reply>, Receiver<Reply>),
    /// Of `in_flight`, the queries asked on their own threads.
    asking: usize,
}

/// How long a step with only asked players waits for one of them.
const ASKED_WAIT: Duration = Duration::from_millis(10);

impl Analyzer {
    /// An analyzer filling left-out fields from `defaults`, each round's
    /// batch of a group judged on `threads` threads.
    pub fn new(defaults: Defaults, threads: usize) -> Analyzer {
        Analyzer {
            defaults,
            groups: HashMap::new(),
            in_flight: 0,
            threads: threads.max(1),
            asked: mpsc::channel(),
            asking: 0,
        }
    }

    /// Queries being searched.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Players whose evaluators are kept (those with queries in flight,
    /// and up to [`MAX_CACHED_PLAYERS`] in all when none is waiting).
    pub fn cached_evaluators(&self) -> usize {
        self.groups.len()
    }

    /// Players whose specs are kept loaded.
    pub fn cached_players(&self) -> usize {
        self.defaults.cached_players()
    }

    /// Takes one query line: a refused query is answered at once; a player
    /// that does not search is asked on a thread of its own (its answer
    /// comes from [`Analyzer::step`]); a search joins the queries in flight.
    pub fn submit(&mut self, line: &str) -> Option<Reply> {
        let arrived = Instant::now();
        let (id, checked) = self.defaults.read(line);
        let query = match checked {
            Ok(q) => q,
            Err(error) => return Some(Reply::Error { id, error }),
        };
        match query.player.search_parts() {
            None => {
                let answers = self.asked.0.clone();
                std::thread::spawn(move || {
                    let decision = query.player.build(&query.rules, 0).try_choose(&query.game);
                    let reply = match decision {
                        Ok(d) => Reply::Answer(Box::new(from_decision(&query, &d, ms(arrived)))),
                        Err(e) => Reply::Error {
                            id: query.id.clone(),
                            error: format!("player: {e}"),
                        },
                    };
                    let _ = answers.send(reply);
                });
                self.asking += 1;
            }
            Some(parts) => {
                let config = parts.search_config().clone();
                let simulations = query.simulations.unwrap_or(config.simulations);
                let mut search = Search::new(query.rules.clone(), config, 0);
                search.begin(&query.game, simulations);
                let key = query.player_name.clone();
                let threads = self.threads;
                if !self.groups.contains_key(&key) && self.groups.len() >= MAX_CACHED_PLAYERS {
                    // Idle groups give way; busy ones stay until their
                    // queries are answered.
                    self.groups.retain(|_, g| !g.jobs.is_empty());
                }
                let group = self.groups.entry(key).or_insert_with(|| Group {
                    evaluator: if threads > 1 {
                        let each = (0..threads).map(|_| parts.evaluator()).collect();
                        Box::new(ParallelEvaluator::new(each))
                    } else {
                        parts.evaluator()
                    },
                    jobs: Vec::new(),
                });
                group.jobs.push(Job {
                    query,
                    search,
                    arrived,
                });
            }
        }
        self.in_flight += 1;
        None
    }

    /// One round of every search in flight (one evaluator call per
    /// group); the answers of the searches it finished and of the players
    /// asked that have answered (waiting up to 10 ms for one when no
    /// search is in flight).
    pub fn step(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        if self.asking > 0 {
            let wait = if self.in_flight == self.asking {
                ASKED_WAIT
            } else {
                Duration::ZERO
            };
            if let Ok(reply) = self.asked.1.recv_timeout(wait) {
                replies.push(reply);
            }
            replies.extend(self.asked.1.try_iter());
            self.asking -= replies.len();
            self.in_flight -= replies.len();
        }
        for group in self.groups.values_mut() {
            if group.jobs.is_empty() {
                continue;
            }
            let mut searches: Vec<&mut Search> =
                group.jobs.iter_mut().map(|j| &mut j.search).collect();
            run_round(&mut searches, group.evaluator.as_mut());
            let mut i = 0;
            while i < group.jobs.len() {
                if group.jobs[i].search.is_finished() {
                    let mut job = group.jobs.swap_remove(i);
                    let result = job.search.result();
                    let lines = job.search.root_lines();
                    replies.push(Reply::Answer(Box::new(from_search(
                        &job.query,
                        &result,
                        &lines,
                        group.evaluator.as_mut(),
                        ms(job.arrived),
                    ))));
                    self.in_flight -= 1;
                } else {
                    i += 1;
                }
            }
        }
        replies
    }

    /// Analyses one query to the end (the one-shot `jungle analyze`).
    pub fn analyze_one(&mut self, line: &str) -> Reply {
        let mut reply = self.submit(line);
        while reply.is_none() {
            reply = self.step().pop();
        }
        reply.expect("the query's answer")
    }
}

fn ms(since: Instant) -> u64 {
    since.elapsed().as_millis() as u64
}

/// Serves queries from `input` until it ends and every answer is written:
/// up to `max_in_flight` searches at a time share the evaluator's calls;
/// one JSON line per answer or error on `output`, flushed at once.
pub fn serve<R, W>(
    analyzer: &mut Analyzer,
    input: R,
    output: &mut W,
    max_in_flight: usize,
) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = read_lines(input, MAX_QUERY_LINE, |_| Peeked::Queue);
    let mut open = true;
    loop {
        // Take queries while there is room, waiting only when idle.
        while open && analyzer.in_flight() < max_in_flight.max(1) {
            let next = if analyzer.in_flight() == 0 {
                lines.recv().map_err(|_| TryRecvError::Disconnected)
            } else {
                lines.try_recv()
            };
            let line = match next {
                Ok(line) => line,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    open = false;
                    break;
                }
            };
            let reply = match line {
                Ok(text) if text.trim().is_empty() => None,
                Ok(text) => analyzer.submit(text.trim()),
                Err(e) => Some(Reply::Error {
                    id: serde_json::Value::Null,
                    error: e.to_string(),
                }),
            };
            if let Some(reply) = reply {
                writeln!(output, "{}", reply.line())?;
                output.flush()?;
            }
        }
        if analyzer.in_flight() == 0 {
            if open {
                continue;
            }
            return Ok(());
        }
        for reply in analyzer.step() {
            writeln!(output, "{}", reply.line())?;
            output.flush()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_net::Compute;
    use jungle_rules::{Game, Rules};

    fn analyzer() -> Analyzer {
        Analyzer::new(
            Defaults::new(
                Some("mcts:120".to_string()),
                "standard".to_string(),
                Compute::cpu(),
            ),
            2,
        )
    }

    fn answer(reply: Reply) -> Answer {
        match reply {
            Reply::Answer(a) => *a,
            Reply::Error { id, error } => panic!("{id}: {error}"),
        }
    }

    #[test]
    fn queries_in_flight_are_answered_as_alone_and_bad_ones_at_once() {
        let mut a = analyzer();
        let queries = [
            r#"{"id": 1, "moves": ["a3a4", "g7g6"], "multipv": 3}"#,
            r#"{"id": "two", "simulations": 60, "analyze_moves": ["a1b1"]}"#,
            r#"{"id": 3, "moves": ["g3g4"], "player": "alphabeta:2"}"#,
        ];
        let mut replies: Vec<Reply> = queries.iter().filter_map(|q| a.submit(q)).collect();
        // All three are in flight: the alpha-beta query on its own thread.
        assert!(replies.is_empty());
        assert_eq!(a.in_flight(), 3);
        while a.in_flight() > 0 {
            replies.extend(a.step());
        }
        let answers: Vec<Answer> = replies.into_iter().map(answer).collect();
        let by_id = |id: serde_json::Value| answers.iter().find(|x| x.id == id).unwrap();
        let (first, second, third) = (by_id(1.into()), by_id("two".into()), by_id(3.into()));
        assert_eq!(first.id, 1);
        assert_eq!(first.simulations, 120);
        assert_eq!(first.lines.len(), 3);
        assert_eq!(first.lines[0].mv, first.best);
        assert!(first.lines[0].visits >= first.lines[1].visits);
        assert_eq!(
            first.lines.iter().map(|l| l.order).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(second.simulations, 60);
        assert!(second.lines.iter().any(|l| l.mv == "a1b1"), "{second:?}");
        assert_eq!(third.player, "alphabeta:2");
        assert_eq!(third.simulations, 0);
        // The same search alone, as a player: the same move and visits.
        let rules = Rules::default();
        let mut game = Game::new(rules.clone());
        game.play_text("a3a4").unwrap();
        game.play_text("g7g6").unwrap();
        let factory = crate::load_player("mcts:120").unwrap();
        let alone = factory.build(&rules, 0).choose(&game);
        assert_eq!(first.best, alone.mv.to_string());
        assert_eq!(first.lines[0].pv[0], alone.pv[0].to_string());
    }

    #[test]
    fn a_long_answer_holds_no_other_query() {
        let mut a = analyzer();
        // A deep alpha-beta (a second or more), then a small search.
        assert!(a.submit(r#"{"id": 1, "player": "alphabeta:10"}"#).is_none());
        assert!(a.submit(r#"{"id": 2, "simulations": 30}"#).is_none());
        let mut order = Vec::new();
        while a.in_flight() > 0 {
            order.extend(a.step().into_iter().map(|r| answer(r).id));
        }
        assert_eq!(order, [2, 1]);
    }

    #[test]
    fn caches_are_bounded_and_programs_and_devices_are_refused() {
        let mut a = analyzer();
        for n in 0..20 {
            let q = format!(r#"{{"id": {n}, "player": "mcts:{}"}}"#, 20 + n);
            assert!(a.submit(&q).is_none());
            while a.in_flight() > 0 {
                a.step();
            }
        }
        assert!(
            a.cached_players() <= MAX_CACHED_PLAYERS,
            "{}",
            a.cached_players()
        );
        assert!(
            a.cached_evaluators() <= MAX_CACHED_PLAYERS,
            "{}",
            a.cached_evaluators()
        );
        let refused = |a: &mut Analyzer, q: &str| match a.submit(q) {
            Some(Reply::Error { error, .. }) => error,
            other => panic!("{q}: {:?}", other.map(|r| r.line())),
        };
        let e = refused(&mut a, r#"{"id": 1, "player": "jcei:/bin/sh -c true"}"#);
        assert!(
            e.contains("may not start programs") && e.contains("--allow-programs"),
            "{e}"
        );
        let e = refused(&mut a, r#"{"id": 2, "variant": "/dev/zero"}"#);
        assert!(e.contains("/dev/zero") && e.contains("regular file"), "{e}");
    }

    #[test]
    fn malformed_queries_get_an_error_with_their_id() {
        let mut a = analyzer();
        let error = |a: &mut Analyzer, line: &str| match a.submit(line) {
            Some(Reply::Error { id, error }) => (id, error),
            _ => panic!("{line}: no error"),
        };
        let (id, why) = error(&mut a, "{not json");
        assert_eq!(id, serde_json::Value::Null);
        assert!(why.starts_with("not JSON"), "{why}");
        for (line, expected) in [
            (r#"{"id": 7, "moves": ["a3a9"]}"#, "moves[0] `a3a9`"),
            (
                r#"{"id": 7, "simulatons": 5}"#,
                "unknown field `simulatons`",
            ),
            (r#"{"id": 7, "simulations": 0}"#, "simulations: 0"),
            (r#"{"id": 7, "multipv": 0}"#, "multipv: 0"),
            (r#"{"id": 7, "variant": "nope"}"#, "variant"),
            (r#"{"id": 7, "player": "stockfish"}"#, "stockfish"),
            (r#"{"id": 7, "position": "xx w"}"#, "position"),
            (
                r#"{"id": 7, "analyze_moves": ["a3a5"]}"#,
                "analyze_moves[0] `a3a5`",
            ),
            (
                r#"{"id": 7, "player": "greedy", "simulations": 5}"#,
                "does not search",
            ),
        ] {
            let (id, why) = error(&mut a, line);
            assert_eq!(id, 7, "{line}");
            assert!(why.contains(expected), "{line}: {why}");
        }
        let (id, why) = error(&mut a, r#"{"moves": []}"#);
        assert_eq!(id, serde_json::Value::Null);
        assert!(why.contains("missing field `id`"), "{why}");
        assert_eq!(a.in_flight(), 0);
    }

    #[test]
    fn the_server_answers_every_line_and_ends_with_its_input() {
        let input = concat!(
            "{\"id\": 1, \"simulations\": 40}\n",
            "\n",
            "[1, 2]\n",
            "{\"id\": 2, \"simulations\": 40, \"moves\": [\"a3a4\"]}\n",
        );
        let mut out = Vec::new();
        serve(
            &mut analyzer(),
            std::io::Cursor::new(input.as_bytes().to_vec()),
            &mut out,
            8,
        )
        .unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().any(|l| l["error"]
            .as_str()
            .is_some_and(|e| e.contains("JSON object"))));
        for id in [1, 2] {
            let a = lines.iter().find(|l| l["id"] == id).unwrap();
            assert_eq!(a["simulations"], 40, "{a}");
            let wdl = a["wdl"].as_array().unwrap();
            assert_eq!(wdl.len(), 3);
        }
    }
}
