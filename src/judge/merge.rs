//! `boardgames judge merge FILE...`: the class table put back together from the JSON reports of
//! its shards (`--programs DIR --shard K/N --format json`), in any form, the same bytes as the
//! class judged in one run. A CI service runs the shards, as jobs of a matrix; the judge needs no
//! scheduler of its own. Shards of different judgings are refused, naming what differs: the
//! version of boardgames, the game, the boards, the cases, the limits, the grading options or the
//! build (what `class::judged_what` writes), as are a shard or a submission given twice and
//! missing shards.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::Value;

use super::class::Shard;
use super::reporting::{self, Format, Row};
use super::running::Sealing;

/// Why shards cannot be merged.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A file that is no shard's class report.
    NotAShard(PathBuf),
    /// Shards of different judgings: the field, and each shard with its value.
    Differs {
        field: String,
        first: (String, String),
        other: (String, String),
    },
    /// One shard given twice.
    ShardTwice(String, PathBuf, PathBuf),
    /// One submission in two shards.
    SubmissionTwice(String, String, String),
    /// Shards not given: how many there are, and their names.
    Missing(usize, Vec<String>),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAShard(path) => write!(
                f,
                "{} is not the JSON report of a class's shard (judge ... --programs DIR \
                 --shard K/N --format json)",
                path.display()
            ),
            Refusal::Differs {
                field,
                first: (a, in_a),
                other: (b, in_b),
            } => write!(
                f,
                "not one judging: {field} is {in_b} in {b} but {in_a} in {a}"
            ),
            Refusal::ShardTwice(shard, a, b) => write!(
                f,
                "shard {shard} twice: {} and {}",
                a.display(),
                b.display()
            ),
            Refusal::SubmissionTwice(name, a, b) => {
                write!(f, "submission {name} twice: in {a} and in {b}")
            }
            Refusal::Missing(count, names) => write!(
                f,
                "{} of {count} missing: {}",
                names.len(),
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// One shard's report, read.
struct Part {
    path: PathBuf,
    shard: Shard,
    judging: Value,
    rows: Vec<Row>,
    sealing: Sealing,
}

impl Part {
    /// The shard's name in a refusal: `2/3 (b.json)`.
    fn name(&self) -> String {
        format!(
            "{}/{} ({})",
            self.shard.index,
            self.shard.count,
            self.path.display()
        )
    }
}

/// The class table of the shards in `files`, as `format` asks: the same bytes as the class
/// judged in one run.
pub fn merge(files: &[PathBuf], format: Format) -> anyhow::Result<Vec<u8>> {
    let parts = files
        .iter()
        .map(|path| read(path))
        .collect::<anyhow::Result<Vec<Part>>>()?;
    let Some(first) = parts.first() else {
        anyhow::bail!("no shards to merge");
    };
    check(&parts)?;
    let mut rows: Vec<Row> = parts.iter().flat_map(|p| p.rows.clone()).collect();
    reporting::sort(&mut rows);
    let mut judging = first.judging.clone();
    judging["shard"] = Value::from("1/1");
    let sealing = sealing(&parts);
    reporting::table(&rows, format, &sealing, Some(&judging))
}

/// The shard report at `path`.
fn read(path: &Path) -> anyhow::Result<Part> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let not = || Refusal::NotAShard(path.to_path_buf());
    let report: Value = serde_json::from_slice(&bytes).map_err(|_| not())?;
    let judging = report["judging"].clone();
    let shard: Shard = judging["shard"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(not)?;
    let rows = report["submissions"]
        .as_array()
        .ok_or_else(not)?
        .iter()
        .map(Row::from_json)
        .collect::<Option<Vec<Row>>>()
        .ok_or_else(not)?;
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    let sealing = Sealing {
        applied: strings(&report["sealing"]["applied"]).ok_or_else(not)?,
        missing: strings(&report["sealing"]["missing"]).ok_or_else(not)?,
    };
    Ok(Part {
        path: path.to_path_buf(),
        shard,
        judging,
        rows,
        sealing,
    })
}

/// Refuses shards that are not the whole of one judging, once each.
fn check(parts: &[Part]) -> Result<(), Refusal> {
    let first = &parts[0];
    let fields = flat(&first.judging);
    for part in &parts[1..] {
        let differs = |field: &str, a: String, b: String| Refusal::Differs {
            field: field.to_string(),
            first: (first.name(), a),
            other: (part.name(), b),
        };
        if part.shard.count != first.shard.count {
            let count = |p: &Part| format!("{} shards", p.shard.count);
            return Err(differs("the judging", count(first), count(part)));
        }
        let theirs = flat(&part.judging);
        let named: BTreeSet<&str> = fields.iter().chain(&theirs).map(|(f, _)| &f[..]).collect();
        for field in named.into_iter().filter(|&f| f != "shard") {
            let get = |list: &[(String, String)]| {
                list.iter()
                    .find(|(f, _)| f == field)
                    .map_or_else(|| "absent".to_string(), |(_, v)| v.clone())
            };
            let (a, b) = (get(&fields), get(&theirs));
            if a != b {
                return Err(differs(field, a, b));
            }
        }
    }
    let mut seen: Vec<(&str, &Part)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if let Some(other) = parts[..i].iter().find(|p| p.shard == part.shard) {
            let shard = format!("{}/{}", part.shard.index, part.shard.count);
            return Err(Refusal::ShardTwice(
                shard,
                other.path.clone(),
                part.path.clone(),
            ));
        }
        for row in &part.rows {
            if let Some((_, other)) = seen.iter().find(|(name, _)| *name == row.name) {
                return Err(Refusal::SubmissionTwice(
                    row.name.clone(),
                    other.name(),
                    part.name(),
                ));
            }
            seen.push((&row.name, part));
        }
    }
    let count = first.shard.count;
    let missing: Vec<String> = (1..=count)
        .filter(|&k| !parts.iter().any(|p| p.shard.index == k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Refusal::Missing(count, missing))
    }
}

/// A JSON value's leaves by their dotted paths (`cases.seed`), each as JSON text.
fn flat(value: &Value) -> Vec<(String, String)> {
    fn walk(value: &Value, path: &str, into: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    let path = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    walk(inner, &path, into);
                }
            }
            leaf => into.push((path.to_string(), leaf.to_string())),
        }
    }
    let mut into = Vec::new();
    walk(value, "", &mut into);
    into
}

/// The sealing of the class: what every shard had; a layer some shards lacked is missing, with
/// the shards that had it.
fn sealing(parts: &[Part]) -> Sealing {
    let first = &parts[0].sealing;
    if parts.iter().all(|p| p.sealing == *first) {
        return first.clone();
    }
    let mut sealing = Sealing::default();
    for part in parts {
        for layer in &part.sealing.applied {
            let had: Vec<String> = parts
                .iter()
                .filter(|p| p.sealing.applied.contains(layer))
                .map(|p| format!("{}/{}", p.shard.index, p.shard.count))
                .collect();
            if had.len() == parts.len() {
                if !sealing.applied.contains(layer) {
                    sealing.applied.push(layer.clone());
                }
            } else {
                let only = format!("{layer} (in shards {} only)", had.join(" "));
                if !sealing.missing.contains(&only) {
                    sealing.missing.push(only);
                }
            }
        }
        for layer in &part.sealing.missing {
            if !sealing.missing.contains(layer) {
                sealing.missing.push(layer.clone());
            }
        }
    }
    sealing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(k: usize, n: usize, applied: &[&str]) -> Part {
        Part {
            path: PathBuf::from(format!("s{k}.json")),
            shard: Shard { index: k, count: n },
            judging: serde_json::json!({"boardgames": "1", "cases": {"seed": "1"}}),
            rows: Vec::new(),
            sealing: Sealing {
                applied: applied.iter().map(|s| s.to_string()).collect(),
                missing: Vec::new(),
            },
        }
    }

    #[test]
    fn missing_shards_are_counted_and_named() {
        let parts = [part(1, 5, &[]), part(2, 5, &[]), part(4, 5, &[])];
        let refusal = check(&parts).unwrap_err();
        assert_eq!(refusal.to_string(), "2 of 5 missing: 3/5, 5/5");
        let parts = [part(1, 2, &[]), part(2, 3, &[])];
        assert_eq!(
            check(&parts).unwrap_err().to_string(),
            "not one judging: the judging is 3 shards in 2/3 (s2.json) but 2 shards in 1/2 \
             (s1.json)"
        );
    }

    #[test]
    fn a_layer_some_shards_lacked_is_missing_with_the_shards_that_had_it() {
        let same = [
            part(1, 2, &["files", "network"]),
            part(2, 2, &["files", "network"]),
        ];
        assert_eq!(sealing(&same), same[0].sealing);
        let mixed = [part(1, 2, &["files", "network"]), part(2, 2, &["files"])];
        let merged = sealing(&mixed);
        assert_eq!(merged.applied, ["files"]);
        assert_eq!(merged.missing, ["network (in shards 1/2 only)"]);
    }

    #[test]
    fn judgings_are_compared_leaf_by_leaf() {
        let value = serde_json::json!({"a": 1, "b": {"c": "x", "d": [1, 2]}});
        assert_eq!(
            flat(&value),
            [
                ("a".to_string(), "1".to_string()),
                ("b.c".to_string(), "\"x\"".to_string()),
                ("b.d".to_string(), "[1,2]".to_string()),
            ]
        );
    }
}
