//! What each built-in function takes, as the HTCondor manual writes it:
//! the words an error explanation gives when a call has the wrong number
//! of arguments or arguments of the wrong kind. The counts are the ones
//! libclassad 25 accepts (probed against its Python bindings; the tests
//! check that a call outside them is `error` here too).

/// A function's usage line and how many arguments it takes (`max` none:
/// any number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub usage: &'static str,
    pub min: u8,
    pub max: Option<u8>,
}

const fn sig(usage: &'static str, min: u8, max: u8) -> Signature {
    Signature {
        usage,
        min,
        max: Some(max),
    }
}

const fn many(usage: &'static str, min: u8) -> Signature {
    Signature {
        usage,
        min,
        max: None,
    }
}

/// (lower-case name, signature), for every name in `builtins::NAMES`.
const TABLE: &[(&str, Signature)] = &[
    ("isundefined", sig("isUndefined(expr)", 1, 1)),
    ("iserror", sig("isError(expr)", 1, 1)),
    ("isstring", sig("isString(expr)", 1, 1)),
    ("isinteger", sig("isInteger(expr)", 1, 1)),
    ("isreal", sig("isReal(expr)", 1, 1)),
    ("isboolean", sig("isBoolean(expr)", 1, 1)),
    ("islist", sig("isList(expr)", 1, 1)),
    ("isclassad", sig("isClassAd(expr)", 1, 1)),
    ("isabstime", sig("isAbstime(expr)", 1, 1)),
    ("isreltime", sig("isReltime(expr)", 1, 1)),
    ("ifthenelse", sig("ifThenElse(condition, if_true, if_false)", 3, 3)),
    ("eval", sig("eval(string expression)", 1, 1)),
    ("unparse", sig("unparse(attribute)", 1, 1)),
    ("unresolved", sig("unresolved(attribute [, string pattern])", 1, 2)),
    ("debug", sig("debug(expr)", 1, 1)),
    ("member", sig("member(item, list)", 2, 2)),
    ("identicalmember", sig("identicalMember(item, list)", 2, 2)),
    ("sum", sig("sum(list of numbers)", 1, 1)),
    ("avg", sig("avg(list of numbers)", 1, 1)),
    ("min", sig("min(list of numbers)", 1, 1)),
    ("max", sig("max(list of numbers)", 1, 1)),
    ("anycompare", sig("anyCompare(string operator, list, value)", 3, 3)),
    ("allcompare", sig("allCompare(string operator, list, value)", 3, 3)),
    ("int", sig("int(expr)", 1, 1)),
    ("real", sig("real(expr)", 1, 1)),
    ("string", sig("string(expr)", 1, 1)),
    ("bool", sig("bool(expr)", 1, 1)),
    ("floor", sig("floor(number)", 1, 1)),
    ("ceiling", sig("ceiling(number)", 1, 1)),
    ("ceil", sig("ceil(number)", 1, 1)),
    ("round", sig("round(number)", 1, 1)),
    ("pow", sig("pow(number base, number exponent)", 2, 2)),
    ("quantize", sig("quantize(number, number or list)", 2, 2)),
    ("random", sig("random([number])", 0, 1)),
    ("evalineachcontext", sig("evalInEachContext(expr, list of records)", 2, 2)),
    ("countmatches", sig("countMatches(expr, list of records)", 2, 2)),
    ("strcat", many("strcat(expr, …)", 0)),
    ("join", many("join(string separator, list) or join(string separator, expr, …)", 0)),
    ("toupper", sig("toUpper(string)", 1, 1)),
    ("tolower", sig("toLower(string)", 1, 1)),
    ("substr", sig("substr(string, integer offset [, integer length])", 2, 3)),
    ("strcmp", sig("strcmp(string, string)", 2, 2)),
    ("stricmp", sig("stricmp(string, string)", 2, 2)),
    ("size", sig("size(string, list or record)", 1, 1)),
    ("versioncmp", sig("versioncmp(string, string)", 2, 2)),
    ("versionlt", sig("versionLT(string, string)", 2, 2)),
    ("versionle", sig("versionLE(string, string)", 2, 2)),
    ("versiongt", sig("versionGT(string, string)", 2, 2)),
    ("versionge", sig("versionGE(string, string)", 2, 2)),
    ("versioneq", sig("versionEQ(string, string)", 2, 2)),
    ("version_in_range", sig("version_in_range(string version, string min, string max)", 3, 3)),
    ("regexp", sig("regexp(string pattern, string target [, string options])", 2, 3)),
    ("regexps", sig("regexps(string pattern, string target, string substitute [, string options])", 3, 4)),
    ("replace", sig("replace(string pattern, string target, string substitute [, string options])", 3, 4)),
    ("replaceall", sig("replaceAll(string pattern, string target, string substitute [, string options])", 3, 4)),
    ("regexpmember", sig("regexpMember(string pattern, list of strings [, string options])", 2, 3)),
    ("stringlistsintersect", sig("stringListsIntersect(string list, string list [, string delimiters])", 2, 3)),
    ("stringlistsize", sig("stringListSize(string list [, string delimiters])", 1, 2)),
    ("stringlistsum", sig("stringListSum(string list [, string delimiters])", 1, 2)),
    ("stringlistavg", sig("stringListAvg(string list [, string delimiters])", 1, 2)),
    ("stringlistmin", sig("stringListMin(string list [, string delimiters])", 1, 2)),
    ("stringlistmax", sig("stringListMax(string list [, string delimiters])", 1, 2)),
    ("stringlistmember", sig("stringListMember(string item, string list [, string delimiters])", 2, 3)),
    ("stringlistimember", sig("stringListIMember(string item, string list [, string delimiters])", 2, 3)),
    ("stringlistsubsetmatch", sig("stringListSubsetMatch(string list, string list [, string delimiters])", 2, 3)),
    ("stringlistisubsetmatch", sig("stringListISubsetMatch(string list, string list [, string delimiters])", 2, 3)),
    ("stringlist_regexpmember", sig("stringList_regexpMember(string pattern, string list [, string delimiters [, string options]])", 2, 4)),
    ("split", sig("split(string [, string delimiters])", 1, 2)),
    ("splitusername", sig("splitUserName(string name)", 1, 1)),
    ("splitslotname", sig("splitSlotName(string name)", 1, 1)),
    ("argstolist", sig("argsToList(string arguments [, integer version])", 1, 2)),
    ("listtoargs", sig("listToArgs(list of strings)", 1, 1)),
    ("envv1tov2", sig("envV1ToV2(string environment)", 1, 1)),
    ("mergeenvironment", many("mergeEnvironment(string environment, …)", 0)),
    ("time", sig("time()", 0, 0)),
    ("currenttime", sig("currentTime()", 0, 0)),
    ("timezoneoffset", sig("timeZoneOffset()", 0, 0)),
    ("daytime", sig("dayTime()", 0, 0)),
    ("abstime", sig("absTime([string or integer time [, integer zone offset]])", 0, 2)),
    ("reltime", sig("relTime(string or number)", 1, 1)),
    ("getyear", sig("getYear(absolute time)", 1, 1)),
    ("getmonth", sig("getMonth(absolute time)", 1, 1)),
    ("getdayofyear", sig("getDayOfYear(absolute time)", 1, 1)),
    ("getdayofmonth", sig("getDayOfMonth(absolute time)", 1, 1)),
    ("getdayofweek", sig("getDayOfWeek(absolute time)", 1, 1)),
    ("getdays", sig("getDays(relative time)", 1, 1)),
    ("gethours", sig("getHours(relative time)", 1, 1)),
    ("getminutes", sig("getMinutes(relative time)", 1, 1)),
    ("getseconds", sig("getSeconds(relative time)", 1, 1)),
    ("splittime", sig("splitTime(time)", 1, 1)),
    ("formattime", sig("formatTime([time [, string format]])", 0, 2)),
    ("interval", sig("interval(integer seconds)", 1, 1)),
];

/// The signature of built-in function `name` (any case).
pub fn signature(name: &str) -> Option<Signature> {
    let lower = name.to_ascii_lowercase();
    TABLE.iter().find(|(n, _)| *n == lower).map(|(_, s)| *s)
}

/// The built-in function whose name is nearest `name` (a typo's likely
/// meaning), if any is near: at most two edits, or one for short names.
pub fn nearest(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let budget = if lower.len() <= 4 { 1 } else { 2 };
    crate::lang::builtins::NAMES
        .iter()
        .map(|n| (edits(&lower, &n.to_ascii_lowercase()), *n))
        .filter(|(d, _)| *d <= budget)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// Levenshtein distance (names are short: a row at a time).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_has_a_signature() {
        for n in crate::lang::builtins::NAMES {
            assert!(signature(n).is_some(), "{n}");
        }
        assert_eq!(TABLE.len(), crate::lang::builtins::NAMES.len());
    }

    #[test]
    fn a_typo_finds_its_function() {
        assert_eq!(nearest("memeber"), Some("member"));
        assert_eq!(nearest("StrCat"), Some("strcat"));
        assert_eq!(nearest("toupper"), Some("toUpper"));
        assert_eq!(nearest("frobnicate"), None);
    }
}
