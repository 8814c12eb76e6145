//! Which pool holds the jobs and which the machines: the user's choice
//! (`MatchSettings`) when it still names a pool, else what the pools'
//! ads (or names) say. Every matchmaking view, the analyzer and the query
//! view read the pools this way.

use crate::state::app_state::{MatchSettings, PoolText};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Jobs,
    Machines,
}

/// How much of a pool's text is looked at to tell jobs from machines.
const SNIFF_BYTES: usize = 64 * 1024;

/// What a pool's ads look like: the `MyType` (or the seed papers' `Type`)
/// most of its first ads declare, else what the pool's name says.
pub fn role_of(pool: &PoolText) -> Option<Role> {
    // A submit file holds no ads: its job ads are a pool of their own.
    if crate::bridge::submit::looks_like_submit(&pool.text) {
        return None;
    }
    let mut end = pool.text.len().min(SNIFF_BYTES);
    while !pool.text.is_char_boundary(end) {
        end -= 1;
    }
    let (mut jobs, mut machines) = (0, 0);
    // New syntax puts several definitions on a line; old one per line.
    // Split on bytes (both separators are ASCII): no UTF-8 decoding.
    for def in pool.text.as_bytes()[..end].split(|&b| b == b'\n' || b == b';') {
        let Ok(def) = std::str::from_utf8(def) else {
            continue;
        };
        let d = def.trim().trim_start_matches('[').trim_start();
        let Some((name, value)) = d.split_once('=') else {
            continue;
        };
        let name = name.trim().to_ascii_lowercase();
        if name != "mytype" && name != "type" {
            continue;
        }
        let v = value
            .trim()
            .trim_end_matches([']', ';'])
            .trim()
            .to_ascii_lowercase();
        match v.as_str() {
            "\"job\"" => jobs += 1,
            "\"machine\"" | "\"slot\"" => machines += 1,
            _ => {}
        }
    }
    if jobs != machines {
        return Some(if jobs > machines {
            Role::Jobs
        } else {
            Role::Machines
        });
    }
    let name = pool.name.to_ascii_lowercase();
    if name.contains("job") {
        Some(Role::Jobs)
    } else if ["machine", "site", "slot", "resource", "status"]
        .iter()
        .any(|w| name.contains(w))
    {
        Some(Role::Machines)
    } else {
        None
    }
}

/// The jobs pool and the machines pool: the user's choice when it is
/// still a pool, else the pools that look like jobs and machines, else
/// the first pools not taken by the other side.
pub fn pick_pools(pools: &[PoolText], chosen: &MatchSettings) -> (Option<usize>, Option<usize>) {
    let valid = |i: Option<usize>| i.filter(|&i| i < pools.len());
    let roles: Vec<Option<Role>> = pools.iter().map(role_of).collect();
    let find = |want: Role, not: Option<usize>| {
        (0..pools.len()).find(|&i| roles[i] == Some(want) && Some(i) != not)
    };
    let mut jobs = valid(chosen.jobs);
    let mut machines = valid(chosen.machines);
    if jobs.is_none() {
        jobs = find(Role::Jobs, machines);
    }
    if machines.is_none() {
        machines = find(Role::Machines, jobs);
    }
    let submit: Vec<bool> = pools
        .iter()
        .map(|p| crate::bridge::submit::looks_like_submit(&p.text))
        .collect();
    let other = |not: Option<usize>| (0..pools.len()).find(|&i| Some(i) != not && !submit[i]);
    if jobs.is_none() {
        jobs = other(machines).or(machines);
    }
    if machines.is_none() {
        machines = other(jobs).or(jobs);
    }
    (jobs, machines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn pool(name: &str, text: &str) -> PoolText {
        PoolText {
            name: name.into(),
            text: Rc::from(text),
        }
    }

    #[test]
    fn a_submit_file_is_neither_side_its_job_ads_are_the_jobs() {
        let pools = [
            pool("job.sub", "executable = /bin/true\nqueue\n"),
            pool("machines", "[ MyType = \"Machine\" ]"),
            pool("job.sub jobs", "[ MyType = \"Job\" ]"),
        ];
        assert_eq!(
            role_of(&pools[0]),
            None,
            "its name says job, but it holds no ads"
        );
        assert_eq!(
            pick_pools(&pools, &MatchSettings::default()),
            (Some(2), Some(1))
        );
        // Alone with a machines pool, it is not taken for the jobs.
        assert_eq!(
            pick_pools(&pools[..2], &MatchSettings::default()),
            (Some(1), Some(1))
        );
    }

    #[test]
    fn roles_from_mytype_type_and_names() {
        assert_eq!(
            role_of(&pool("a", "[ MyType = \"Job\"; Owner = \"x\" ]")),
            Some(Role::Jobs)
        );
        assert_eq!(
            role_of(&pool(
                "a",
                "Arch = \"X\"\nMyType = \"Machine\"\n\nMyType = \"Machine\"\n"
            )),
            Some(Role::Machines)
        );
        // The seed papers' `Type`, spaced out and at the end of a record.
        assert_eq!(
            role_of(&pool("p", "[\n  Type       = \"Machine\";\n]")),
            Some(Role::Machines)
        );
        assert_eq!(role_of(&pool("p", "[Type=\"Job\"]")), Some(Role::Jobs));
        // Nothing in the ads: the name decides.
        assert_eq!(role_of(&pool("my jobs", "[ a = 1 ]")), Some(Role::Jobs));
        assert_eq!(role_of(&pool("sites", "[ a = 1 ]")), Some(Role::Machines));
        assert_eq!(role_of(&pool("pool 3", "[ a = 1 ]")), None);
        // A multi-byte character at the sniffing limit is no problem.
        let long = "é".repeat(SNIFF_BYTES);
        assert_eq!(role_of(&pool("x", &long)), None);
    }

    #[test]
    fn pools_are_picked_by_what_they_hold() {
        let s = MatchSettings::default();
        let machines = pool("machines", "[ MyType = \"Machine\" ]");
        let jobs = pool("jobs", "[ MyType = \"Job\" ]");
        let other = pool("notes", "[ a = 1 ]");
        assert_eq!(
            pick_pools(&[machines.clone(), jobs.clone()], &s),
            (Some(1), Some(0))
        );
        assert_eq!(
            pick_pools(&[other.clone(), jobs.clone(), machines.clone()], &s),
            (Some(1), Some(2))
        );
        // The user's choice wins; an out-of-range choice does not.
        let chosen = MatchSettings {
            jobs: Some(0),
            machines: Some(9),
            ..Default::default()
        };
        assert_eq!(
            pick_pools(&[other.clone(), jobs.clone(), machines], &chosen),
            (Some(0), Some(2))
        );
        // Nothing recognisable: first and second pool; a single pool plays both.
        assert_eq!(
            pick_pools(&[other.clone(), other.clone()], &s),
            (Some(0), Some(1))
        );
        assert_eq!(pick_pools(&[other], &s), (Some(0), Some(0)));
        assert_eq!(pick_pools(&[], &s), (None, None));
    }
}
