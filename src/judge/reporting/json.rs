//! The JSON report's parts: a case, the summary, the sealing, and JSON as indented text.

use serde_json::json;

use super::{counts, failed, kinds, tokens, verdict_name};
use crate::judge::reading::compare::{token_before, visible};
use crate::judge::running::Sealing;
use crate::judge::{Judged, Judging, Verdict};

/// The sealing in a JSON report: the protections applied, and those missing with why.
pub fn sealing_json(sealing: &Sealing) -> serde_json::Value {
    json!({ "applied": sealing.applied, "missing": sealing.missing })
}

/// A JSON report as indented text with a final line break.
pub fn pretty(report: &serde_json::Value) -> anyhow::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(report)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A case as a JSON object.
pub(super) fn case(judging: &Judging, j: &Judged) -> serde_json::Value {
    let mut case = json!({
        "name": j.case.name,
        "verdict": verdict_name(j),
        "failed": failed(j),
        "seconds": j.time.as_secs_f64(),
        "tokens": tokens(j),
        "outputs": j.outputs,
        "runs": judging.repeat,
        "peak_kib": j.peak_kib,
        "left_behind": j.left,
        "limits_reached": j.hits,
    });
    // As a string: a 64-bit seed is past what JSON readers hold exactly in a number.
    if let Some(seed) = j.case.seed {
        case["seed"] = json!(seed.to_string());
    }
    match &j.verdict {
        Verdict::Wrong(d) | Verdict::Presentation(d) => {
            case["line"] = json!(d.line);
            case["column"] = json!(d.column);
            case["after"] = json!(token_before(&j.case.expected.reads, d.offset));
            case["expected"] = json!(d.expected.as_deref().map(visible));
            case["actual"] = json!(d.actual.as_deref().map(visible));
            // The lines' raw bytes beside their display form.
            case["expected_bytes"] = json!(d.expected);
            case["actual_bytes"] = json!(d.actual);
        }
        Verdict::RuntimeError(how) => case["how"] = json!(how),
        Verdict::CompileError(output) => case["build"] = json!(output),
        _ => {}
    }
    if let Some(d) = &j.diagnosis {
        case["rule"] = json!(d.rule.map(|r| r.id()));
        case["detail"] = json!(d.detail);
        case["loop"] = json!(d.looped);
        let cosmetics: Vec<_> = d
            .cosmetics
            .iter()
            .map(|c| json!({"rule": c.rule.id(), "description": c.description}))
            .collect();
        case["cosmetics"] = json!(cosmetics);
    }
    if let Some(crash) = &j.crash {
        let frame = crash.frame.as_ref();
        case["crash"] = json!({
            "tool": crash.tool,
            "kind": crash.kind,
            "function": frame.and_then(|f| f.function.as_deref()),
            "file": frame.map(|f| &f.file),
            "line": frame.map(|f| f.line),
        });
    }
    if !j.stderr.is_empty() {
        case["stderr"] = json!(String::from_utf8_lossy(&j.stderr));
    }
    case
}

/// The summary as a JSON object: counts by verdict, and the kinds of failure.
pub(super) fn summary(judged: &[Judged]) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = counts(judged)
        .into_iter()
        .map(|(name, n)| (name.to_string(), json!(n)))
        .collect();
    let kinds: Vec<_> = kinds(judged)
        .into_iter()
        .map(|(kind, count, shortest)| json!({"kind": kind, "count": count, "shortest": shortest.case.name}))
        .collect();
    json!({ "cases": judged.len(), "verdicts": counts, "kinds": kinds })
}
