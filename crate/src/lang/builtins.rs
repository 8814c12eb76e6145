//! The names of the built-in functions: the language's vocabulary of
//! calls. The parser resolves a call's name here, to the function's index
//! in the library (`functions`), so evaluation never looks a name up. The
//! library lays its definitions out in this order and checks that it does.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// What libclassad and HTCondor define, in the library's order (by family).
pub const NAMES: &[&str] = &[
    // types
    "isUndefined",
    "isError",
    "isString",
    "isInteger",
    "isReal",
    "isBoolean",
    "isList",
    "isClassAd",
    "isAbstime",
    "isReltime",
    "ifThenElse",
    "eval",
    "unparse",
    "unresolved",
    "debug",
    // lists
    "member",
    "identicalMember",
    "sum",
    "avg",
    "min",
    "max",
    "anyCompare",
    "allCompare",
    // misc
    "int",
    "real",
    "string",
    "bool",
    "floor",
    "ceiling",
    "ceil",
    "round",
    "pow",
    "quantize",
    "random",
    "evalInEachContext",
    "countMatches",
    // strings
    "strcat",
    "join",
    "toUpper",
    "toLower",
    "substr",
    "strcmp",
    "stricmp",
    "size",
    "versioncmp",
    "versionLT",
    "versionLE",
    "versionGT",
    "versionGE",
    "versionEQ",
    "version_in_range",
    "regexp",
    "regexps",
    "replace",
    "replaceall",
    "regexpMember",
    // stringlists
    "stringListsIntersect",
    "stringListSize",
    "stringListSum",
    "stringListAvg",
    "stringListMin",
    "stringListMax",
    "stringListMember",
    "stringListIMember",
    "stringListSubsetMatch",
    "stringListISubsetMatch",
    "stringList_regexpMember",
    "split",
    "splitUserName",
    "splitSlotName",
    "argsToList",
    "listToArgs",
    "envV1ToV2",
    "mergeEnvironment",
    // time_fns
    "time",
    "currentTime",
    "timeZoneOffset",
    "dayTime",
    "absTime",
    "relTime",
    "getYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDayOfWeek",
    "getDays",
    "getHours",
    "getMinutes",
    "getSeconds",
    "splitTime",
    "formatTime",
    "interval",
];

/// The seed papers' functions that today's libclassad no longer has
/// (MakeDate, InDays, IsMember, …): known only outside the modern dialect,
/// where HTCondor would answer error anyway. Numbered after [`NAMES`].
pub const SEED_NAMES: &[&str] = &[
    "makeDate",
    "makeAbsTime",
    "makeRelTime",
    "inDays",
    "inHours",
    "inMinutes",
    "inSeconds",
    "isMember",
];

struct Index {
    by_name: FxHashMap<String, u16>,
    seed_by_name: FxHashMap<String, u16>,
}

fn index() -> &'static Index {
    static I: OnceLock<Index> = OnceLock::new();
    I.get_or_init(|| {
        let mut by_name = FxHashMap::default();
        for (i, n) in NAMES.iter().enumerate() {
            let prev = by_name.insert(n.to_ascii_lowercase(), i as u16);
            debug_assert!(prev.is_none(), "function {n} named twice");
        }
        let seed_by_name = SEED_NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_ascii_lowercase(), (NAMES.len() + i) as u16))
            .collect();
        Index {
            by_name,
            seed_by_name,
        }
    })
}

/// Resolve a function name (any case) to its index in the library.
pub fn lookup(name: &str) -> Option<u16> {
    index().by_name.get(&name.to_ascii_lowercase()).copied()
}

/// Resolve a name among the seed papers' retired functions.
pub fn lookup_seed(name: &str) -> Option<u16> {
    index()
        .seed_by_name
        .get(&name.to_ascii_lowercase())
        .copied()
}
