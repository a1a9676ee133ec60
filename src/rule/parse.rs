//! The rule-string parser behind [`Rule::parse`]: names, `MAP`, B/S and S/B (with Hensel
//! letters and `H`/`V` suffixes), Generations, and the refusals.
//!
//! The grammar follows Golly's `liferules::setrule` and `generationsalgo::setrule`
//! (`gollybase/`): case-insensitive; `B`/`S` may come in either order, either side of one
//! slash, or without a slash (`B3S23`); no letters means S/B (`23/3`); an underscore may
//! replace the slash in non-totalistic rules; `H` or `V` ends the rule; Generations have
//! two slashes and a state count 2..=256 last (`S/B/C`). golab also reads LifeViewer's
//! `B…/S…/C…` form (`B2/S/C3`), which Golly does not.
//!
//! Semantics of repeated counts follow Golly's table construction exactly: a count's first
//! mention decides; `2-a` is "every 2 but a"; later letters of the same count add (or, after
//! `-`, remove) classes; a bare digit after letters of the same count changes nothing.

use super::counts::counts_table;
use super::generations::parse_states;
use super::hensel::LETTERS;
use super::spec::{Family, Neighbourhood, Notation, Rule, cell};
use super::{NAMED_SPECS, RuleError, map};

/// Parse a rule string (see the module docs).
pub fn parse(text: &str) -> Result<Rule, RuleError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(RuleError::Empty);
    }
    if let Some(target) = named(trimmed) {
        return parse_unnamed(target, trimmed);
    }
    match parse_unnamed(trimmed, trimmed) {
        Ok(rule) => Ok(rule),
        // Golly's order: its built-in families first, then RuleLoader's `.rule` files.
        Err(error) => match super::table::library::load(trimmed) {
            Ok(id) => Ok(Rule::from_rule_table(id)),
            Err(super::table::library::LoadError::NotFound(_)) if matches!(error, RuleError::Refused { family, .. } if family != "RuleLoader") => {
                Err(error)
            }
            Err(super::table::library::LoadError::NotFound(folders))
                if looks_like_a_name(trimmed)
                    && matches!(
                        error,
                        RuleError::Malformed { .. } | RuleError::Refused { .. }
                    ) =>
            {
                Err(RuleError::Unknown {
                    rule: trimmed.to_string(),
                    folders,
                })
            }
            Err(super::table::library::LoadError::NotFound(_)) => Err(error),
            Err(bad) => Err(invalid(trimmed, bad.to_string())),
        },
    }
}

/// Whether `text` reads as a rule's name rather than a mistyped B/S rule: a letter other
/// than B, S, H, V and Hensel's letters, no slash.
fn looks_like_a_name(text: &str) -> bool {
    !text.contains('/')
        && text.contains(|c: char| {
            let c = c.to_ascii_lowercase();
            c.is_ascii_alphabetic() && !"bshv".contains(c) && !LETTERS.contains(c)
        })
}

/// The rule string a name stands for (case, spaces, `&`, `'`, `-` and `_` ignored).
fn named(text: &str) -> Option<&'static str> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && !"&'-_".contains(*c))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = squash(text);
    NAMED_SPECS
        .iter()
        .find(|(name, _)| squash(name) == key)
        .map(|(_, rule)| *rule)
}

fn refused(rule: &str, family: &'static str, why: &str) -> RuleError {
    RuleError::Refused {
        rule: rule.to_string(),
        family,
        why: why.to_string(),
    }
}

fn invalid(rule: &str, why: impl Into<String>) -> RuleError {
    RuleError::Invalid {
        rule: rule.to_string(),
        why: why.into(),
    }
}

fn parse_unnamed(text: &str, original: &str) -> Result<Rule, RuleError> {
    if text.contains(':') {
        return Err(refused(
            original,
            "bounded-grid",
            "a ':T…', ':P…' (or :K, :C, :S) suffix selects Golly's bounded universe; the \
             pattern reader strips it and golab's world sets size and topology, so give the \
             rule without it",
        ));
    }
    if let Some(layered) = super::table::layered::rule(text) {
        return layered.map_err(|e| invalid(original, e.message));
    }
    if text
        .get(..3)
        .is_some_and(|head| head.eq_ignore_ascii_case("map"))
    {
        return parse_map(&text[3..], original);
    }
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let lower = squashed.to_ascii_lowercase();
    if lower.starts_with('@') {
        return Err(refused(
            original,
            "RuleLoader",
            "@RULE tables and trees need Golly's RuleLoader algorithm",
        ));
    }
    if super::ltl::parse::looks_like_ltl(&squashed) {
        return super::ltl::parse::parse(&squashed)
            .map(Rule::from_ltl)
            .map_err(|e| invalid(original, format!("Larger than Life: {e}")));
    }
    if lower.contains(',') {
        let margolus =
            lower.starts_with('m') && lower[1..].starts_with(|c: char| c.is_ascii_digit());
        return Err(if margolus {
            refused(
                original,
                "Margolus",
                "block (partitioning) rules update 2×2 blocks in alternating phases, not cells",
            )
        } else {
            refused(
                original,
                "Larger than Life",
                "R…,C…,M…,S…,B…,N… rules count neighbours over a range beyond the 3×3 window",
            )
        });
    }
    if lower.len() > 1 && lower.starts_with('w') && lower[1..].bytes().all(|b| b.is_ascii_digit()) {
        return wolfram(&lower[1..], original);
    }
    if let Some(variant) = super::table::jvn::Variant::from_name(&lower) {
        return super::table::jvn::rule(variant).map_err(|e| invalid(original, e.to_string()));
    }
    let word = lower
        .chars()
        .all(|c| c.is_ascii_alphabetic() || "'&-_".contains(c));
    if word
        && lower.contains(|c: char| {
            c.is_ascii_alphabetic() && !"bshv".contains(c) && !LETTERS.contains(c)
        })
    {
        return Err(refused(
            original,
            "RuleLoader",
            "not a rule golab knows by name, and no rule file of that name was found",
        ));
    }
    parse_birth_survival(&lower, original)
}

fn parse_map(rest: &str, original: &str) -> Result<Rule, RuleError> {
    // '/' is a base64 digit too: a string of a MAP length is two-state, else "/C" ends it.
    let bare = rest.trim();
    let two_state = map::neighbourhood_of_length(bare.strip_suffix("==").unwrap_or(bare).len());
    let (digits, states) = match rest.rsplit_once('/') {
        Some((digits, states)) if two_state.is_none() => {
            (digits, Some(parse_states(states, original)?))
        }
        _ => (rest, None),
    };
    let digits = digits.trim();
    let digits = digits.strip_suffix("==").unwrap_or(digits);
    let neighbourhood = map::neighbourhood_of_length(digits.len()).ok_or_else(|| {
        invalid(
            original,
            format!(
                "a MAP rule needs 86 (Moore), 22 (hexagonal) or 6 (von Neumann) base64 \
                 characters, optionally followed by '==', not {}",
                digits.chars().count()
            ),
        )
    })?;
    let table = map::decode(neighbourhood, digits).map_err(|c| {
        invalid(
            original,
            format!("'{c}' is not a base64 character of a MAP rule"),
        )
    })?;
    let family = if states.is_some() {
        Family::Generations
    } else {
        Family::TwoState
    };
    Ok(Rule::from_table(
        family,
        neighbourhood,
        Notation::Map,
        states.unwrap_or(2),
        table,
    ))
}

/// B/S, S/B and Generations text, already lower-cased and without whitespace.
fn parse_birth_survival(lower: &str, original: &str) -> Result<Rule, RuleError> {
    let (body, neighbourhood) = match lower.as_bytes().last() {
        Some(b'h') => (&lower[..lower.len() - 1], Neighbourhood::Hexagonal),
        Some(b'v') => (&lower[..lower.len() - 1], Neighbourhood::VonNeumann),
        _ => (lower, Neighbourhood::Moore),
    };
    if body.contains(['h', 'v']) {
        return Err(invalid(
            original,
            "the neighbourhood letter (H hexagonal, V von Neumann) must come once, at the end",
        ));
    }
    // Letters (or a minus) in the B and S parts; the third part is a state count (`C3`).
    let letters = body
        .split(['/', '_'])
        .take(2)
        .any(|p| p.contains(|c: char| c == '-' || (c != 'b' && c != 's' && LETTERS.contains(c))));
    let body = if body.contains('_') {
        // Golly allows an underscore for the slash only in non-totalistic rules.
        if !letters {
            return Err(invalid(
                original,
                "an underscore may replace the slash only in non-totalistic rules; use a slash",
            ));
        }
        body.replace('_', "/")
    } else {
        body.to_string()
    };
    if letters && neighbourhood != Neighbourhood::Moore {
        return Err(invalid(
            original,
            "Hensel letters (non-totalistic rules) exist only for the Moore neighbourhood in \
             Golly; hexagonal and von Neumann rules are totalistic",
        ));
    }
    let parts: Vec<&str> = body.split('/').collect();
    let (birth, survival, family, states) = match parts.as_slice() {
        [one] => {
            let (b, s) = split_unslashed(one, original)?;
            (b, s, Family::TwoState, 2)
        }
        [first, second] => {
            let (b, s) = split_pair(first, second, original)?;
            (b, s, Family::TwoState, 2)
        }
        [first, second, third] => {
            let states = parse_states(third, original)?;
            let (b, s) = split_pair(first, second, original)?;
            (b, s, Family::Generations, states)
        }
        _ => {
            return Err(invalid(
                original,
                "too many slashes (B/S has one, Generations S/B/C has two)",
            ));
        }
    };
    let mut table = counts_table(birth, false, neighbourhood, original)?;
    let survive = counts_table(survival, true, neighbourhood, original)?;
    for (t, s) in table.iter_mut().zip(survive) {
        *t |= s;
    }
    Ok(Rule::from_table(
        family,
        neighbourhood,
        Notation::BirthSurvival,
        states,
        table,
    ))
}

/// `B3S23`, `S23B3`, `B3`, `S23`, or Golly's `23B3`-style forms without a slash: (birth,
/// survival).
fn split_unslashed<'a>(text: &'a str, original: &str) -> Result<(&'a str, &'a str), RuleError> {
    let (b, s) = (single(text, 'b', original)?, single(text, 's', original)?);
    match (b, s) {
        (Some(b), Some(s)) if b < s && b == 0 => Ok((&text[1..s], &text[s + 1..])),
        (Some(b), Some(s)) if s < b && s == 0 => Ok((&text[b + 1..], &text[1..b])),
        (Some(_), Some(_)) => Err(invalid(original, "B or S must start the rule")),
        (Some(0), None) => Ok((&text[1..], "")),
        (Some(b), None) => Ok((&text[b + 1..], &text[..b])),
        (None, Some(0)) => Ok(("", &text[1..])),
        (None, Some(s)) => Ok((&text[..s], &text[s + 1..])),
        (None, None) => Err(RuleError::Malformed {
            rule: original.to_string(),
        }),
    }
}

/// Two slash-separated parts: (birth, survival) by their `B`/`S` letters, else S/B.
fn split_pair<'a>(
    first: &'a str,
    second: &'a str,
    original: &str,
) -> Result<(&'a str, &'a str), RuleError> {
    for part in [first, second] {
        if part.get(1..).is_some_and(|rest| rest.contains(['b', 's'])) {
            return Err(invalid(
                original,
                "B and S must begin their part of the rule (B3/S23, S23/B3)",
            ));
        }
    }
    let (b0, s0) = (first.starts_with('b'), first.starts_with('s'));
    let (b1, s1) = (second.starts_with('b'), second.starts_with('s'));
    if b0 && b1 {
        return Err(invalid(original, "only one B allowed"));
    }
    if s0 && s1 {
        return Err(invalid(original, "only one S allowed"));
    }
    let strip = |p: &'a str| p.strip_prefix(['b', 's']).unwrap_or(p);
    if b0 || s1 {
        Ok((strip(first), strip(second)))
    } else {
        Ok((strip(second), strip(first)))
    }
}

/// Position of the only occurrence of `letter` in `text`, if any.
fn single(text: &str, letter: char, original: &str) -> Result<Option<usize>, RuleError> {
    let mut found = text.match_indices(letter).map(|(i, _)| i);
    let first = found.next();
    if found.next().is_some() {
        return Err(invalid(
            original,
            format!("only one {} allowed", letter.to_ascii_uppercase()),
        ));
    }
    Ok(first)
}

/// `W<n>`: Wolfram's elementary rule n as Golly emulates it in two dimensions (Golly's help,
/// "Wolfram's 1D rules": n even, 0..=254; each new generation is the row below the last).
/// A cell is alive next if it is alive now or if bit `left·4 + centre·2 + right` of n is
/// set for the three cells above it (NW, N, NE): live cells never die.
fn wolfram(digits: &str, original: &str) -> Result<Rule, RuleError> {
    let n: u32 = digits.parse().unwrap_or(u32::MAX);
    if n > 254 || n % 2 == 1 {
        return Err(RuleError::Invalid {
            rule: original.to_string(),
            why: "a Wolfram rule is W and an even number from 0 to 254 (an odd one would turn every empty cell on)".into(),
        });
    }
    let mut table = [0u64; 8];
    for i in 0..512u16 {
        let above = u32::from(i >> cell::NE & 7);
        if i >> cell::C & 1 == 1 || n >> above & 1 == 1 {
            table[usize::from(i / 64)] |= 1 << (i % 64);
        }
    }
    Ok(Rule::from_table(
        Family::TwoState,
        Neighbourhood::Moore,
        Notation::Wolfram(n as u8),
        2,
        table,
    ))
}
