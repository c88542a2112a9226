//! The WebAssembly crate's functions, run natively: the game API, the
//! encoding and slots against `jungle-encoding`, and the agent driven as
//! the page drives it against the `net:` player's own search.

use jungle_encoding::{move_slot as slot_of, Encoding};
use jungle_mcts::{search, Search, SearchConfig};
use jungle_net::{cpu_device, load_checkpoint, InferenceNet, ValueTerms};
use jungle_rules::{Game, Rules};
use jungle_wasm::{
    encode_position, move_slot, preset_names, slot_move, AgentSettings, WebAgent, WebGame,
};
use std::path::Path;
use std::sync::Arc;

/// The baseline's one-hour network (4x32, tactical planes, survival head).
const HOUR_NET: &str = "../../experiments/base-s0/00014531";

#[test]
fn a_game_plays_undoes_and_ends_with_its_reason() {
    let mut g = WebGame::new("standard", None).unwrap();
    assert_eq!(g.side_to_move(), "south");
    let board = g.board();
    assert_eq!(board.iter().filter(|s| !s.is_empty()).count(), 16);
    assert_eq!(board[0], "south tiger", "{board:?}");
    let terrain = WebGame::terrain();
    let count = |t: &str| terrain.iter().filter(|s| *s == t).count();
    assert_eq!(
        (count("water"), count("trap south"), count("trap north")),
        (12, 3, 3)
    );
    assert_eq!((count("den south"), count("den north")), (1, 1));
    assert_eq!(WebGame::square_names()[62], "g9");
    let moves = g.legal_moves();
    assert!(!moves.is_empty());
    g.play(&moves[0]).unwrap();
    assert_eq!(g.side_to_move(), "north");
    assert_eq!(g.undo(), Some(moves[0].clone()));
    let e = g.play("a1a5").unwrap_err().to_string();
    assert!(e.contains("a1a5"), "{e}");
    // A South rat one step from North's den wins by entering it.
    let mut g = WebGame::new("standard", Some("r6/3R3/7/7/7/7/7/7/7 w 0 1".into())).unwrap();
    assert!(!g.is_over() && g.result().is_none());
    g.play("d8d9").unwrap();
    assert!(g.is_over());
    assert_eq!(g.result().as_deref(), Some("south"));
    assert_eq!(g.reason().as_deref(), Some("den"));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn bad_rules_and_positions_are_named() {
    let e = WebGame::new("no-such-rules", None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("rules") && e.contains("standard"), "{e}");
    let e = WebGame::new("standard", Some("not a fen".into()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.starts_with("position"), "{e}");
    assert_eq!(preset_names()[0], "standard");
    // A JSON rule set (as model.json carries it) is taken too.
    let g = WebGame::new("standard", None).unwrap();
    assert!(WebGame::new(&g.rules_json(), None).is_ok());
}

#[test]
fn planes_and_slots_are_jungle_encodings() {
    let rules = Rules::default();
    let mut game = Game::new(rules.clone());
    for _ in 0..6 {
        let fen = game.position().to_fen();
        for e in Encoding::ALL {
            let mut want = vec![0.0; e.input_len()];
            e.encode(game.position(), 1, &rules, &mut want);
            assert_eq!(
                encode_position(&fen, "standard", 1, e.version()).unwrap(),
                want
            );
        }
        let mover = game.position().side_to_move();
        for &mv in game.legal_moves().as_slice() {
            let slot = move_slot(&fen, &mv.to_string()).unwrap();
            assert_eq!(slot as usize, slot_of(mv, mover));
            assert_eq!(
                slot_move(&fen, "standard", slot).unwrap(),
                Some(mv.to_string())
            );
        }
        let mv = game.legal_moves().as_slice()[1];
        game.play(mv).unwrap();
    }
    let e = encode_position(&Game::new(rules).position().to_fen(), "standard", 1, 9)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("encoding_version 9") && e.contains("1, 2, 3"),
        "{e}"
    );
    assert!(slot_move("r6/3R3/7/7/7/7/7/7/7 w 0 1", "standard", 252).is_err());
}

#[test]
fn settings_out_of_range_are_refused_by_name() {
    let settings = AgentSettings {
        encoding_version: 2,
        survival_head: false,
        simulations: 100,
        material: 0.0,
        qsearch: 0.5,
        seed: 0,
    };
    let refused = |s: AgentSettings| {
        WebAgent::with_settings(Rules::default(), s)
            .err()
            .unwrap()
            .to_string()
    };
    assert!(refused(AgentSettings {
        material: 0.6,
        ..settings
    })
    .contains("survival head"));
    assert!(refused(AgentSettings {
        qsearch: 9.0,
        ..settings
    })
    .contains("qsearch_weight"));
    assert!(refused(AgentSettings {
        simulations: 0,
        ..settings
    })
    .contains("simulations"));
    assert!(refused(AgentSettings {
        encoding_version: 7,
        ..settings
    })
    .contains("encoding_version 7"));
}

/// The page's loop: planes out, the network's outputs in, until done.
fn page_search(agent: &mut WebAgent, game: &Game, net: &InferenceNet) -> serde_json::Value {
    agent.begin_game(game).unwrap();
    let planes_per = net.encoding().input_len();
    loop {
        let planes = agent.next_batch().unwrap();
        if planes.is_empty() {
            break;
        }
        let n = agent.batch_len();
        assert_eq!(planes.len(), n * planes_per);
        let out = net.forward(&planes, n);
        agent.apply(&out.policy, &out.wdl, &out.survival).unwrap();
    }
    serde_json::from_str(&agent.result().unwrap()).unwrap()
}

#[test]
fn the_page_agent_is_the_net_player() {
    let loaded = load_checkpoint(Path::new(HOUR_NET), &cpu_device()).unwrap();
    let net = InferenceNet::cpu(&loaded.net);
    let rules = Rules::default();
    let settings = AgentSettings {
        encoding_version: net.encoding().version(),
        survival_head: true,
        simulations: 96,
        material: 0.6,
        qsearch: 0.5,
        seed: 3,
    };
    let terms = ValueTerms {
        material_weight: 0.6,
        qsearch_weight: 0.5,
        cache: 1 << 12,
    };
    let mut evaluator = terms.evaluator_on(net.clone(), Arc::default()).unwrap();
    let mut reference = Search::new(rules.clone(), SearchConfig::for_play(96), 3);
    let mut agent = WebAgent::with_settings(rules.clone(), settings).unwrap();
    let mut game = Game::new(rules);
    // Several moves of one game: the tree is kept between them in both.
    for _ in 0..8 {
        let want = search(&mut reference, &game, &mut evaluator);
        let got = page_search(&mut agent, &game, &net);
        assert_eq!(got["best"], want.best.to_string());
        let visits: Vec<u64> = got["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["visits"].as_u64().unwrap())
            .collect();
        let want_visits: Vec<u64> = want.visits.iter().map(|&v| v as u64).collect();
        assert_eq!(visits, want_visits);
        assert!((got["value"].as_f64().unwrap() - want.value as f64).abs() < 1e-5);
        let wdl: Vec<f64> = got["wdl"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            (wdl.iter().sum::<f64>() - 1.0).abs() < 0.002 && wdl[1] > 0.0,
            "{wdl:?}"
        );
        game.play(want.best).unwrap();
        if game.is_over() {
            break;
        }
    }
    // Out-of-turn calls are refused with a message.
    let mut fresh = WebAgent::with_settings(Rules::default(), settings).unwrap();
    assert!(fresh
        .next_batch()
        .unwrap_err()
        .to_string()
        .contains("begin"));
    fresh.begin_game(&Game::new(Rules::default())).unwrap();
    assert!(fresh
        .result()
        .unwrap_err()
        .to_string()
        .contains("not finished"));
    let planes = fresh.next_batch().unwrap();
    assert!(!planes.is_empty());
    let e = fresh
        .apply(&[0.0; 3], &[0.0; 3], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("policy") && e.contains("252"), "{e}");
}
