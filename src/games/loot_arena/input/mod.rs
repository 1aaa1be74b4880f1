//! The files a Loot Arena host writes: a rules file (`rules`), an item catalogue (`items`) and a
//! battle (`battle`), a whole royale's players (`royale`). Each is checked whole before anything runs; an error names the file, line,
//! field and the fix.

use crate::error::Error;
pub mod battle;
pub mod items;
pub mod royale;
pub mod rules;

/// The shipped files, built in so every command runs without one.
pub const RULES: &str = include_str!("../../../../experiments/loot-arena/rules.toml");
pub const ITEMS: &str = include_str!("../../../../experiments/loot-arena/items.toml");
pub const BATTLE: &str = include_str!("../../../../experiments/loot-arena/battle.toml");
pub const ROYALE: &str = include_str!("../../../../experiments/loot-arena/royale.toml");

/// `skirmish loot check FILE`: a battle, a royale, a rules file or an item catalogue, told
/// apart by what they hold, each read by its parser (its first error, else what it holds in
/// words); `data` loads the rules and catalogue a battle or royale is read against.
pub fn check(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
    data: &dyn Fn() -> Result<
        (
            crate::games::loot_arena::rules::Rules,
            crate::games::loot_arena::state::Catalogue,
        ),
        Error,
    >,
) -> Result<String, Error> {
    use crate::games::loot_arena::rules::Class;
    use crate::games::loot_arena::trace::royale::mark;
    let text = crate::games::file_error::read(src, path, "Loot Arena file")?;
    let name = path.display().to_string();
    let table: Option<toml::Table> = toml::from_str(&text).ok();
    let has = |k: &str| table.as_ref().is_some_and(|t| t.contains_key(k));
    if has("item") || has("tiers") {
        let cat = items::parse(&name, &text)?;
        let mut out = format!("{name}: an item catalogue of {} items\n", cat.items.len());
        for it in &cat.items {
            out.push_str(&format!(
                "  {:<28} {:<26} {}\n",
                it.name,
                it.label(),
                it.dice
            ));
        }
        return Ok(out);
    }
    if royale::is_royale(&text) {
        let (r, _) = data()?;
        let g = royale::parse(&name, &text, &r)?;
        let side = r.royale.side_for(g.seats.len() as u32);
        let mut out = format!(
            "{name}: a royale of {} players on a {side}x{side} map, seed {}\n",
            g.seats.len(),
            g.seed
        );
        for (p, (n, s)) in g.names.iter().zip(&g.seats).enumerate() {
            out.push_str(&format!("  {} {n}: {}\n", mark(p), s.spec()));
        }
        return Ok(out);
    }
    if has("player") {
        let (r, cat) = data()?;
        let b = battle::parse(&name, &text, &r, &cat)?;
        let mut out = format!("{name}: a battle, seed {}\n", b.seed);
        let n = crate::games::loot_arena::trace::Names::new(&b.players, &b.fielded, &b.catalogue);
        for c in 0..4 {
            let l = &b.fielded[c];
            let items: Vec<String> = n.item[c]
                .iter()
                .flatten()
                .map(|(x, d)| format!("{x} {d}"))
                .collect();
            out.push_str(&format!(
                "  {}: {}/{} health; items: {}; armor: {}; plays {}\n",
                n.who[c],
                l.health,
                l.max,
                if items.is_empty() {
                    "none".into()
                } else {
                    items.join(", ")
                },
                n.armor[c]
                    .as_ref()
                    .map_or("none".to_string(), |(x, d)| format!("{x} {d}")),
                l.policy.spec()
            ));
        }
        return Ok(out);
    }
    let r = rules::parse(&name, &text)?;
    let mut out = format!("{name}: a rules file\n");
    for c in Class::ALL {
        let cr = r.class(c);
        out.push_str(&format!(
            "  {:<10} {:>4} health, {} base\n",
            c.name(),
            cr.health,
            cr.dice
        ));
    }
    out.push_str(&crate::games::changes::told(RULES, &text));
    Ok(out)
}
