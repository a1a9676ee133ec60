//! The `@TABLE` reader, as Golly's `ruletable_algo` reads it: `n_states:`,
//! `neighborhood:`, `symmetries:` (keywords in any case), `var name={…}` lines (states or
//! earlier variables), and transitions — comma-separated (spaces and tabs separate too),
//! or comma-free (`012345`) when the rule has at most 10 states and no variable is
//! defined. A variable that appears more than once in a transition is bound (the same
//! state at every appearance); one that appears once matches any of its states. The output
//! is a state, a single-state variable or a bound variable. `#` starts a comment.

use super::TableError;
use super::symmetry::TableNeighbourhood;

/// A set of states 0..=255, one bit each.
pub type StateSet = [u64; 4];

/// The set holding only `state`.
pub fn single(state: u8) -> StateSet {
    let mut set = [0; 4];
    set[usize::from(state / 64)] |= 1 << (state % 64);
    set
}

/// Whether `set` holds `state`.
#[inline]
pub fn holds(set: &StateSet, state: u8) -> bool {
    set[usize::from(state / 64)] >> (state % 64) & 1 == 1
}

/// One transition with its bound variables fixed: the states each input accepts (in the
/// neighbourhood's input order, cell first) and the output state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Transition {
    /// Accepted states per input.
    pub inputs: Vec<StateSet>,
    /// The cell's next state.
    pub output: u8,
}

/// A parsed `@TABLE`: transitions in file order, before symmetries are applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// Number of states (2..=256).
    pub states: u16,
    /// The neighbourhood.
    pub neighbourhood: TableNeighbourhood,
    /// One of the neighbourhood's symmetries.
    pub symmetry: &'static str,
    /// Transitions, first match wins.
    pub transitions: Vec<Transition>,
}

/// Most transitions a table may expand to (bound variables and symmetries included) before
/// compiling: a table beyond it is refused with the count.
pub const MAX_TRANSITIONS: usize = 1 << 21;

/// Read an `@TABLE` section (`lines` with their 1-based numbers).
pub fn read_table(lines: &[(usize, &str)]) -> Result<TableSpec, TableError> {
    let mut states: Option<u16> = None;
    let mut neighbourhood: Option<TableNeighbourhood> = None;
    let mut symmetry: Option<&'static str> = None;
    let mut variables: Vec<(String, Vec<u8>)> = Vec::new();
    let mut transitions = Vec::new();
    for &(line, raw) in lines {
        let text = raw.split('#').next().unwrap_or("");
        let lead = text.len() - text.trim_start().len();
        let body = text.trim();
        if body.is_empty() {
            continue;
        }
        let at = |offset: usize, message: String| TableError::at(line, lead + offset + 1, message);
        if let Some(value) = keyword(body, "n_states:") {
            let value = value.trim();
            let n: u16 = value
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(9, format!("n_states must be a number, not '{value}'")))?;
            if !(2..=256).contains(&n) {
                return Err(at(9, format!("n_states out of range (2-256): {n}")));
            }
            states = Some(n);
        } else if let Some(value) = keyword(body, "neighborhood:") {
            let value = value.trim();
            neighbourhood = Some(
                TableNeighbourhood::ALL
                    .into_iter()
                    .find(|n| n.keyword() == value)
                    .ok_or_else(|| {
                        at(13, format!("unsupported neighborhood '{value}' (vonNeumann, Moore, hexagonal or oneDimensional)"))
                    })?,
            );
        } else if let Some(value) = keyword(body, "symmetries:") {
            let value = value.trim();
            let Some(n) = neighbourhood else {
                return Err(at(
                    0,
                    "neighborhood must be declared before symmetries".into(),
                ));
            };
            symmetry = Some(
                n.symmetries()
                    .iter()
                    .copied()
                    .find(|s| *s == value)
                    .ok_or_else(|| {
                        at(
                            11,
                            format!(
                                "unsupported symmetries '{value}' for {} (allowed: {})",
                                n.keyword(),
                                n.symmetries().join(", ")
                            ),
                        )
                    })?,
            );
        } else {
            let (Some(states), Some(neighbourhood), Some(_)) = (states, neighbourhood, symmetry)
            else {
                return Err(at(0, "n_states, neighborhood and symmetries must come before the first variable or transition".into()));
            };
            if keyword(body, "var ").is_some() {
                let (name, values) =
                    read_variable(body, states, &variables).map_err(|(o, m)| at(o, m))?;
                match variables.iter_mut().find(|(n, _)| *n == name) {
                    Some(existing) => existing.1 = values,
                    None => variables.push((name, values)),
                }
            } else {
                let before = transitions.len();
                read_transition(body, states, neighbourhood, &variables, &mut transitions)
                    .map_err(|(o, m)| at(o, m))?;
                debug_assert!(transitions.len() > before);
                if transitions.len() > MAX_TRANSITIONS {
                    return Err(at(
                        0,
                        format!(
                            "the table expands to more than {MAX_TRANSITIONS} transitions (bound variables), golab's limit"
                        ),
                    ));
                }
            }
        }
    }
    match (states, neighbourhood, symmetry) {
        (Some(states), Some(neighbourhood), Some(symmetry)) => Ok(TableSpec {
            states,
            neighbourhood,
            symmetry,
            transitions,
        }),
        _ => Err(TableError::at(
            lines.first().map_or(0, |l| l.0),
            1,
            "one or more of n_states, neighborhood or symmetries is missing",
        )),
    }
}

/// The rest of `line` after `key` when it starts with it (case-insensitive, as Golly).
fn keyword<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let head = line.get(..key.len())?;
    head.eq_ignore_ascii_case(key).then(|| &line[key.len()..])
}

/// A column offset (0-based, within the trimmed line) and a message.
type Located = (usize, String);

/// Tokens of `text` split at any of `delimiters`, with their 0-based offsets.
fn split<'a>(text: &'a str, delimiters: &'a str) -> impl Iterator<Item = (usize, &'a str)> {
    let mut offset = 0;
    text.split(move |c| delimiters.contains(c))
        .filter_map(move |token| {
            let at = offset;
            offset += token.len() + 1;
            (!token.is_empty()).then_some((at, token))
        })
}

/// `var name={1,2,…}`: the name and its states (earlier variables expand in place).
fn read_variable(
    body: &str,
    states: u16,
    variables: &[(String, Vec<u8>)],
) -> Result<(String, Vec<u8>), Located> {
    // The name is what precedes `=`, `{`, `,` or a space (Golly 3.3 reads `var a{0,1}` as
    // `var a={0,1}`, and so does golab).
    let tokens: Vec<(usize, &str)> = split(body, "= {,}").collect();
    let name = tokens.get(1).map_or("", |t| t.1);
    if name.is_empty() {
        return Err((4, "a variable needs a name: var name={states}".to_string()));
    }
    if tokens.len() < 3 {
        return Err((0, format!("variable '{name}' has no states")));
    }
    let mut values = Vec::new();
    for &(at, token) in &tokens[2..] {
        if let Some((_, v)) = variables.iter().find(|(n, _)| n == token) {
            values.extend_from_slice(v);
        } else {
            values.push(state(token, states).map_err(|m| (at, m))?);
        }
    }
    Ok((name.to_string(), values))
}

/// A state number below `states`.
fn state(token: &str, states: u16) -> Result<u8, String> {
    match token.parse::<u32>() {
        Ok(s) if s < u32::from(states) => Ok(s as u8),
        Ok(s) => Err(format!("state {s} is out of range (n_states is {states})")),
        Err(_) => Err(format!(
            "'{token}' is neither a state nor a variable defined above"
        )),
    }
}

/// One transition line, bound variables expanded (one transition per combination).
fn read_transition(
    body: &str,
    states: u16,
    neighbourhood: TableNeighbourhood,
    variables: &[(String, Vec<u8>)],
    out: &mut Vec<Transition>,
) -> Result<(), Located> {
    let n = neighbourhood.inputs();
    if states <= 10 && variables.is_empty() && !body.contains(',') {
        // Comma-free: one digit per input, then the output; anything after is ignored.
        let digits: Vec<(usize, char)> = body.char_indices().take(n + 1).collect();
        if digits.len() < n + 1 {
            return Err((0, format!("too few entries: {} inputs and an output", n)));
        }
        let mut values = Vec::with_capacity(n + 1);
        for (at, c) in digits {
            let d = c.to_digit(10).ok_or_else(|| {
                (
                    at,
                    format!("'{c}' is not a state (comma-free transitions are digits)"),
                )
            })?;
            values.push(state(&d.to_string(), states).map_err(|m| (at, m))?);
        }
        out.push(Transition {
            inputs: values[..n].iter().map(|&s| single(s)).collect(),
            output: values[n],
        });
        return Ok(());
    }
    let tokens: Vec<(usize, &str)> = split(body, ", \t").collect();
    if tokens.len() < n + 1 {
        return Err((
            0,
            format!(
                "too few entries: {} inputs and an output, found {}",
                n,
                tokens.len()
            ),
        ));
    }
    let tokens = &tokens[..=n];
    let lookup = |name: &str| variables.iter().find(|(v, _)| v == name).map(|(_, s)| s);
    // Bound variables: those appearing more than once among inputs and output.
    let mut bound: Vec<&str> = Vec::new();
    for &(_, t) in tokens {
        if lookup(t).is_some()
            && !bound.contains(&t)
            && tokens.iter().filter(|x| x.1 == t).count() > 1
        {
            bound.push(t);
        }
    }
    let sizes: Vec<usize> = bound
        .iter()
        .map(|b| lookup(b).map_or(0, Vec::len))
        .collect();
    if sizes.contains(&0) {
        return Err((0, "a bound variable has no states".into()));
    }
    let combinations: usize = sizes
        .iter()
        .try_fold(1usize, |a, &s| a.checked_mul(s))
        .unwrap_or(usize::MAX);
    if combinations > MAX_TRANSITIONS {
        return Err((
            0,
            format!(
                "the bound variables give {combinations} transitions, beyond golab's limit of {MAX_TRANSITIONS}"
            ),
        ));
    }
    let mut choice = vec![0usize; bound.len()];
    loop {
        let value_of = |t: &str| -> Option<u8> {
            bound
                .iter()
                .position(|b| *b == t)
                .map(|k| lookup(t).expect("bound")[choice[k]])
        };
        let mut inputs = Vec::with_capacity(n);
        for &(at, t) in &tokens[..n] {
            let set = match (value_of(t), lookup(t)) {
                (Some(v), _) => single(v),
                (None, Some(values)) => values.iter().fold([0u64; 4], |mut s, &v| {
                    s[usize::from(v / 64)] |= 1 << (v % 64);
                    s
                }),
                (None, None) => single(state(t, states).map_err(|m| (at, m))?),
            };
            inputs.push(set);
        }
        let (at, t) = tokens[n];
        let output = match (value_of(t), lookup(t)) {
            (Some(v), _) => v,
            (None, Some(values)) if values.len() == 1 => values[0],
            (None, Some(_)) => {
                return Err((
                    at,
                    format!(
                        "the output '{t}' must be a state, a single-state variable or a bound variable"
                    ),
                ));
            }
            (None, None) => state(t, states).map_err(|m| (at, m))?,
        };
        out.push(Transition { inputs, output });
        // Next combination, the first bound variable fastest (Golly's order).
        let mut k = 0;
        while k < choice.len() {
            choice[k] += 1;
            if choice[k] < sizes[k] {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
        if k == choice.len() {
            return Ok(());
        }
    }
}
