//! The page's agent: the `net:` player's search (the same
//! [`SearchConfig::for_play`], value terms and seed handling), driven
//! from JavaScript through the search's batched interface. The page calls
//! [`WebAgent::next_batch`] for the input planes of the leaves the search
//! wants judged, runs the network on them (onnxruntime-web), and hands the
//! outputs to [`WebAgent::apply`], until `next_batch` returns nothing; then
//! [`WebAgent::result`] has the move.
//!
//! The one difference from `net:` is the evaluation cache, which `net:`
//! keeps in front of its network: a cached evaluation equals a fresh one,
//! so leaving it out changes the time a move takes, not the move.

use crate::error::{web_error, WebError};
use crate::game::{parse_rules, WebGame};
use crate::slots::encoding_of;
use jungle_encoding::{
    add_material, check_material_weight, encode_batch, evaluations, Encoding, NoSurvivalHead, Wdl,
    POLICY_SLOTS, SURVIVAL_OUTPUTS,
};
use jungle_mcts::cache::evaluation_key;
use jungle_mcts::quiescence::check_quiescence_weight;
use jungle_mcts::{
    check_simulations, EvalInput, Evaluation, Evaluator, Search, SearchConfig, WithQuiescence,
};
use jungle_rules::{Game, Rules};
use serde::Serialize;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

/// Draw shares kept for the answers' win/draw/loss before the table is
/// emptied.
const MAX_DRAWS_KEPT: usize = 1 << 18;

/// What the agent is: the network's encoding and heads, and the `net:`
/// spec's search and value terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentSettings {
    /// The network's encoding version (`model.json`'s `encoding_version`).
    pub encoding_version: u32,
    /// Whether the network has the survival head (a fourth output).
    pub survival_head: bool,
    /// Simulations per move.
    pub simulations: u32,
    /// The survival head's material term's weight (`material=`).
    pub material: f32,
    /// The quiescence term's weight (`qsearch=`).
    pub qsearch: f32,
    /// The search's seed (`jungle analyze` uses 0).
    pub seed: u32,
}

impl AgentSettings {
    /// Checks every setting; the message names the one that is wrong.
    fn check(&self) -> Result<Encoding, WebError> {
        let encoding = encoding_of(self.encoding_version)?;
        check_simulations("simulations", self.simulations).map_err(web_error)?;
        check_material_weight(self.material).map_err(web_error)?;
        NoSurvivalHead::check(self.material, self.survival_head).map_err(web_error)?;
        check_quiescence_weight(self.qsearch).map_err(web_error)?;
        Ok(encoding)
    }
}

/// Evaluations already made, handed to the value terms' wrapper.
struct Given(Vec<Evaluation>);

impl Evaluator for Given {
    fn evaluate(&mut self, _batch: &[EvalInput<'_>]) -> Vec<Evaluation> {
        std::mem::take(&mut self.0)
    }
}

/// One move of an answer.
#[derive(Serialize)]
struct MoveLine {
    #[serde(rename = "move")]
    mv: String,
    visits: u32,
    prior: f32,
    policy: f32,
}

/// A finished search's answer, as JSON for the page.
#[derive(Serialize)]
struct Answer {
    best: String,
    value: f32,
    wdl: Wdl,
    pv: Vec<String>,
    simulations: u32,
    moves: Vec<MoveLine>,
}

/// The search of one game, with the network outside.
#[wasm_bindgen(js_name = Agent)]
pub struct WebAgent {
    search: Search,
    rules: Rules,
    encoding: Encoding,
    settings: AgentSettings,
    /// The draw share of every position evaluated, by evaluation key.
    draws: HashMap<u64, f32>,
    /// The current root's evaluation key, once a search has begun.
    root_key: Option<u64>,
}

#[wasm_bindgen(js_class = Agent)]
impl WebAgent {
    /// An agent for games under `rules` (a preset name or a JSON rule
    /// set) with a network of `encoding_version` (with or without the
    /// survival head), searching `simulations` a move with the value
    /// terms `material` and `qsearch`, its choices fixed by `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        rules: &str,
        encoding_version: u32,
        survival_head: bool,
        simulations: u32,
        material: f32,
        qsearch: f32,
        seed: u32,
    ) -> Result<WebAgent, WebError> {
        WebAgent::with_settings(
            parse_rules(rules)?,
            AgentSettings {
                encoding_version,
                survival_head,
                simulations,
                material,
                qsearch,
                seed,
            },
        )
    }

    /// Starts the search of `game`'s position (keeping the tree of the
    /// moves played since the last search, as `net:` players do).
    pub fn begin(&mut self, game: &WebGame) -> Result<(), WebError> {
        self.begin_game(game.game())
    }

    /// The input planes of the leaves the search wants judged next
    /// (`n x planes x 9 x 7` floats, `n` = [`WebAgent::batch_len`]);
    /// empty when the search is done.
    #[wasm_bindgen(js_name = nextBatch)]
    pub fn next_batch(&mut self) -> Result<Vec<f32>, WebError> {
        if self.root_key.is_none() {
            return Err(web_error("no search begun: call begin(game) first"));
        }
        while self.search.pending_len() == 0 && !self.search.is_finished() {
            self.search.collect();
        }
        let inputs: Vec<EvalInput<'_>> = self.search.pending_inputs().collect();
        let mut planes = Vec::new();
        encode_batch(&inputs, self.encoding, &mut planes);
        Ok(planes)
    }

    /// Positions in the batch [`WebAgent::next_batch`] gave.
    #[wasm_bindgen(js_name = batchLen)]
    pub fn batch_len(&self) -> usize {
        self.search.pending_len()
    }

    /// The network's outputs for that batch, in order: policy logits
    /// (`n x 252`), win/draw/loss logits (`n x 3`) and, when the material
    /// term is on, survival logits (`n x 32`; otherwise may be empty).
    pub fn apply(&mut self, policy: &[f32], wdl: &[f32], survival: &[f32]) -> Result<(), WebError> {
        let n = self.search.pending_len();
        let expect = |name: &str, got: usize, per: usize| -> Result<(), WebError> {
            if got == n * per {
                Ok(())
            } else {
                Err(web_error(format!(
                    "{name}: expected {n} x {per} = {} floats for the batch, got {got}",
                    n * per
                )))
            }
        };
        expect("policy", policy.len(), POLICY_SLOTS)?;
        expect("wdl", wdl.len(), 3)?;
        if self.settings.material != 0.0 {
            expect("survival", survival.len(), SURVIVAL_OUTPUTS)?;
        }
        let evals = {
            let inputs: Vec<EvalInput<'_>> = self.search.pending_inputs().collect();
            let mut evals = evaluations(&inputs, policy, wdl);
            add_material(&mut evals, survival, self.settings.material);
            let mut terms = WithQuiescence::new(Given(evals), self.settings.qsearch);
            let evals = terms.evaluate(&inputs);
            if self.draws.len() > MAX_DRAWS_KEPT {
                self.draws.clear();
            }
            for (input, eval) in inputs.iter().zip(&evals) {
                self.draws.insert(evaluation_key(input), eval.wdl[1]);
            }
            evals
        };
        self.search.apply(&evals);
        Ok(())
    }

    /// Whether the search is done.
    #[wasm_bindgen(js_name = isFinished)]
    pub fn is_finished(&self) -> bool {
        self.root_key.is_some() && self.search.is_finished()
    }

    /// The finished search's answer as JSON: `best` (the move to play),
    /// `value` and `wdl` for the side to move, `pv`, `simulations`, and
    /// per root move its `visits`, `prior` and improved `policy`.
    pub fn result(&mut self) -> Result<String, WebError> {
        if !self.is_finished() {
            return Err(web_error(
                "the search is not finished: call nextBatch and apply until nextBatch is empty",
            ));
        }
        let result = self.search.result();
        let draw = self
            .root_key
            .and_then(|key| self.draws.get(&key))
            .copied()
            .unwrap_or(0.0);
        let answer = Answer {
            best: result.best.to_string(),
            value: result.value,
            wdl: Wdl::new(result.value, draw),
            pv: result.pv.iter().map(|m| m.to_string()).collect(),
            simulations: result.simulations,
            moves: result
                .moves
                .iter()
                .enumerate()
                .map(|(i, mv)| MoveLine {
                    mv: mv.to_string(),
                    visits: result.visits[i],
                    prior: result.prior[i],
                    policy: result.improved_policy[i],
                })
                .collect(),
        };
        Ok(serde_json::to_string(&answer).expect("answers serialise"))
    }
}

impl WebAgent {
    /// An agent under `rules` with `settings`, checked.
    pub fn with_settings(rules: Rules, settings: AgentSettings) -> Result<WebAgent, WebError> {
        let encoding = settings.check()?;
        let search = Search::new(
            rules.clone(),
            SearchConfig::for_play(settings.simulations),
            u64::from(settings.seed),
        );
        Ok(WebAgent {
            search,
            rules,
            encoding,
            settings,
            draws: HashMap::new(),
            root_key: None,
        })
    }

    /// [`WebAgent::begin`] on a Rust game.
    pub fn begin_game(&mut self, game: &Game) -> Result<(), WebError> {
        if game.is_over() {
            return Err(web_error("the game is over: there is nothing to search"));
        }
        if game.rules() != &self.rules {
            return Err(web_error(
                "the game's rule set is not the agent's: make a new agent for it",
            ));
        }
        self.search.begin(game, self.settings.simulations);
        let moves = game.legal_moves();
        self.root_key = Some(evaluation_key(&EvalInput {
            position: game.position(),
            legal_moves: moves.as_slice(),
            repetitions: game.repetition_count(),
            rules: game.rules(),
        }));
        Ok(())
    }

    /// The settings.
    pub fn settings(&self) -> AgentSettings {
        self.settings
    }
}
