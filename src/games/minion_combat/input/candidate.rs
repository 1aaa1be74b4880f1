//! `analyze minions --candidate`: a host's own minion, as stats or a catalogue spec.

use crate::error::Error;
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::{Catalogue, Minion};

/// `--candidate`: stats (`H:3 A:1 HP:9 L:1`, any order) or a catalogue spec; the kernel must
/// play it (no effects only the plain model plays, MC-54).
pub fn minion(spec: &str, catalogue: &Catalogue, rules: &Rules) -> Result<Minion, Error> {
    let m = if spec.contains(':') {
        let mut m = Minion {
            name: spec.trim().to_string(),
            recruit: true,
            hand: None,
            missile: None,
            attacks: 1,
            armor: 0,
            hp: 1,
            max_hp: 1,
            level: 0,
            nation: None,
            flight: false,
            enchanted: false,
            clauses: Vec::new(),
        };
        let mut hp = None;
        for w in spec.split_whitespace() {
            if w.eq_ignore_ascii_case("monster") {
                m.recruit = false;
                continue;
            }
            let Some((k, v)) = w.split_once(':') else {
                return Err(Error::Input(format!(
                    "--candidate `{spec}`: `{w}` is not KEY:VALUE; write stats as \"H:3 A:1 HP:9 L:1\" (H hand, M missile, A attacks, AR armor, HP, L level)"
                )));
            };
            let n: i32 = v.parse().map_err(|_| {
                format!("--candidate `{spec}`: `{v}` in `{w}` is not a whole number")
            })?;
            let bad = |lo: i32, hi: i32| {
                (n < lo || n > hi)
                    .then(|| format!("--candidate `{spec}`: `{w}` is outside {lo}..{hi}"))
            };
            let err = match k.to_ascii_uppercase().as_str() {
                "H" => bad(0, 1000).or_else(|| {
                    m.hand = Some(n);
                    None
                }),
                "M" => bad(0, 1000).or_else(|| {
                    m.missile = Some(n);
                    None
                }),
                "A" => bad(1, 8).or_else(|| {
                    m.attacks = n as u32;
                    None
                }),
                "AR" => bad(0, 1000).or_else(|| {
                    m.armor = n;
                    None
                }),
                "HP" => bad(1, 10_000).or_else(|| {
                    hp = Some(n);
                    None
                }),
                // A level the rules cannot play is refused, never played as another (issue 62:
                // `L:7` was labelled L:7 and played as level 5).
                "L" => bad(rules.level_min, rules.level_max).or_else(|| {
                    m.level = n;
                    None
                }),
                other => Some(format!(
                    "--candidate `{spec}`: unknown stat `{other}`: H hand, M missile, A attacks, AR armor, HP, L level"
                )),
            };
            if let Some(e) = err {
                return Err(Error::Input(e));
            }
        }
        let Some(hp) = hp else {
            return Err(Error::Input(format!(
                "--candidate `{spec}`: give its HP, e.g. HP:9"
            )));
        };
        if m.hand.is_none() && m.missile.is_none() {
            return Err(Error::Input(format!(
                "--candidate `{spec}`: give it a hand (H:3) or missile (M:2) damage"
            )));
        }
        m.hp = hp;
        m.max_hp = hp;
        m
    } else {
        let (ms, _) = super::combat::minion_spec(spec, catalogue, rules)
            .map_err(|e| format!("--candidate: {e}"))?;
        ms.into_iter().next().expect("a spec names a minion")
    };
    if !m.kernel_plays() {
        return Err(Error::Input(format!(
            "--candidate `{spec}`: it carries effects (MC-41) that only `minions combat` plays; name one without them"
        )));
    }
    Ok(m)
}
