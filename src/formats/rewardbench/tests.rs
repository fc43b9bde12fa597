//! Unit tests of the helpers the RewardBench readers share.

use super::*;

fn val(text: &str) -> Val<'_> {
    serde_json::from_str(text).unwrap()
}

#[test]
fn top_keys_survive_a_cut_head_and_nan() {
    let head = br#"{"chat_template": "tulu", "id": [30, 31], "model": "m", "scores_chosen": [[NaN], [1.0]], "subset": ["a", "b"], "text_chosen": ["cut sho"#;
    let keys = top_keys(head);
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "chat_template",
            "id",
            "model",
            "scores_chosen",
            "subset",
            "text_chosen"
        ]
    );
    assert!(has(&keys, "id", Some(b'[')));
    assert!(has(&keys, "model", Some(b'"')));
    assert!(!has(&keys, "model", Some(b'[')));
    // Keys inside nested objects and strings that look like keys are not top-level keys.
    let nested = br#"{"a": {"b": 1, "c": "\"d\": 2"}, "e": 3}"#;
    let names: Vec<String> = top_keys(nested).into_iter().map(|(k, _)| k).collect();
    assert_eq!(names, ["a", "e"]);
    assert!(top_keys(b"[1, 2]").is_empty());
    assert!(top_keys(b"").is_empty());
}

#[test]
fn scores_are_numbers_or_one_element_lists() {
    assert_eq!(score(&val("2.5")), Ok(2.5));
    assert_eq!(score(&val("-3")), Ok(-3.0));
    assert_eq!(score(&val("[0.75]")), Ok(0.75));
    assert_eq!(score(&val("[[1.5]]")), Ok(1.5));
    assert!(score(&val(r#""NaN""#)).unwrap().is_nan());
    assert_eq!(score(&val(r#""-Infinity""#)), Ok(f64::NEG_INFINITY));
    assert!(score(&val("[1.0, 2.0]")).is_err());
    assert!(score(&val(r#""high""#))
        .unwrap_err()
        .contains("not a number"));
    assert!(score(&val("null")).is_err());
}

#[test]
fn text_length_counts_characters_of_every_string() {
    assert_eq!(text_len(&val(r#""héllo""#)), 5);
    let messages = r#"[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]"#;
    assert_eq!(text_len(&val(messages)), 4 + 2 + 9 + 2);
    assert_eq!(text_len(&val("12")), 0);
}

fn row_of<'v, 'a>(fields: &'v [(&str, Val<'a>)]) -> Row<'v, 'a> {
    let get = |k: &str| fields.iter().find(|(n, _)| *n == k).map(|(_, v)| v);
    Row {
        id: get("id"),
        subset: get("subset"),
        results: get("results"),
        chosen: get("scores_chosen"),
        rejected: get("scores_rejected"),
        scores: get("scores"),
        num_correct: get("num_correct"),
        text_chosen: get("text_chosen"),
        text_rejected: get("text_rejected"),
        texts: get("text"),
    }
}

#[test]
fn a_pair_row_becomes_a_pair_item_with_a_qualified_id() {
    let fields = [
        ("id", val("30")),
        ("subset", val(r#""alpacaeval-easy""#)),
        ("scores_chosen", val("[2.5]")),
        ("scores_rejected", val("[1.0]")),
        ("results", val("0")),
        ("text_chosen", val(r#""longer text""#)),
        ("text_rejected", val(r#""short""#)),
    ];
    let mut tally = FileTally::default();
    let item = row_item(&row_of(&fields), 1, 7, &mut tally).unwrap();
    assert_eq!(item.id, "alpacaeval-easy/30");
    assert_eq!(item.group.as_deref(), Some("alpacaeval-easy"));
    assert_eq!(item.line, Some(7));
    assert_eq!(
        item.body,
        Body::Pair {
            chosen: 2.5,
            rejected: 1.0
        }
    );
    assert_eq!(tally.disagree, 1, "results 0 while 2.5 > 1.0");
    assert_eq!(
        tally.lengths,
        [TextLengths {
            group: "alpacaeval-easy".to_string(),
            lengths: vec![11, 5],
            best_of_n: false,
        }]
    );
}

#[test]
fn bad_rows_say_why() {
    let mut tally = FileTally::default();
    let nan = [
        ("id", val("1")),
        ("subset", val(r#""shp""#)),
        ("scores_chosen", val(r#""NaN""#)),
        ("scores_rejected", val("1")),
    ];
    let why = row_item(&row_of(&nan), 2, 2, &mut tally).unwrap_err();
    assert!(
        why.contains("row 2 (id 1, shp)") && why.contains("NaN") && why.contains("left out"),
        "{why}"
    );
    let text = [
        ("id", val("1")),
        ("subset", val(r#""shp""#)),
        ("scores_chosen", val(r#""high""#)),
        ("scores_rejected", val("1")),
    ];
    let why = row_item(&row_of(&text), 2, 2, &mut tally).unwrap_err();
    assert!(
        why.contains("`scores_chosen` is the string \"high\", not a number"),
        "{why}"
    );
    let nothing = [("id", val("1")), ("subset", val(r#""shp""#))];
    assert!(row_item(&row_of(&nothing), 1, 1, &mut tally)
        .unwrap_err()
        .contains("no scores"));
    let no_subset = [("id", val("1")), ("results", val("1"))];
    assert!(row_item(&row_of(&no_subset), 1, 1, &mut tally)
        .unwrap_err()
        .contains("no `subset`"));
    let judge = [
        ("id", val("1")),
        ("subset", val(r#""shp""#)),
        ("results", val("2")),
    ];
    assert!(row_item(&row_of(&judge), 1, 1, &mut tally)
        .unwrap_err()
        .contains("outside [0, 1]"));
}

#[test]
fn a_judge_row_is_graded_by_its_results() {
    let fields = [
        ("id", val("4")),
        ("subset", val(r#""hep-go""#)),
        ("results", val("0.5")),
    ];
    let mut tally = FileTally::default();
    let item = row_item(&row_of(&fields), 1, 1, &mut tally).unwrap();
    match item.body {
        Body::Graded { credit, .. } => assert_eq!(credit, 0.5),
        other => panic!("expected a graded item, got {other:?}"),
    }
    assert_eq!(tally.judged, 1);
}

#[test]
fn a_best_of_n_row_keeps_its_id_and_unwraps_scores() {
    let fields = [
        ("id", val(r#""tied:3""#)),
        ("subset", val(r#""Ties""#)),
        ("scores", val("[[3.0], [2.9], [0.5], 0.1]")),
        ("num_correct", val("2")),
        ("results", val("1")),
    ];
    let mut tally = FileTally::default();
    let item = row_item(&row_of(&fields), 1, 1, &mut tally).unwrap();
    assert_eq!(item.id, "tied:3");
    assert_eq!(
        item.body,
        Body::BestOfN {
            scores: vec![3.0, 2.9, 0.5, 0.1],
            num_correct: 2
        }
    );
    assert_eq!(tally.disagree, 0, "Ties results are never compared");
    let too_many = [
        ("id", val(r#""7""#)),
        ("subset", val(r#""Math""#)),
        ("scores", val("[1, 2]")),
        ("num_correct", val("2")),
    ];
    let why = row_item(&row_of(&too_many), 1, 1, &mut tally).unwrap_err();
    assert!(why.contains("`num_correct` is 2"), "{why}");
}
