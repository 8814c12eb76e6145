//! The auto-cluster view: the significant attributes (what the machines
//! look at in a job, plus what the policy reads), the clusters with their
//! sizes and signatures, and the reduction: how many surveys of the
//! machines the negotiator needs instead of one per job.

use std::rc::Rc;

use classad::api::session::PoolRequest;
use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::matchmaking::match_bar::{
    match_view, MatchPools, MatchViewProps, Progress, ViewFrame,
};
use crate::components::widgets::words::{count, duration, thousands};

const PAGE: usize = 50;
/// Jobs named per cluster (the rest are counted).
const NAMED: usize = 6;

struct Answer {
    clusters: classad::api::session::ClusterView,
    /// Clusters, largest first, each with its jobs.
    order: Vec<(u32, Vec<u32>)>,
    ms: f64,
}

impl PartialEq for Answer {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self, o)
    }
}

/// Each cluster's jobs, largest cluster first.
fn members(cluster_of: &[u32], clusters: usize) -> Vec<(u32, Vec<u32>)> {
    let mut by: Vec<(u32, Vec<u32>)> = (0..clusters as u32).map(|i| (i, vec![])).collect();
    for (job, &id) in cluster_of.iter().enumerate() {
        if let Some((_, v)) = by.get_mut(id as usize) {
            v.push(job as u32);
        }
    }
    by.sort_unstable_by_key(|(id, v)| (std::cmp::Reverse(v.len()), *id));
    by
}

#[component]
pub fn AutoclusterView(props: &MatchViewProps) -> Html {
    let frame = ViewFrame {
        label: "Auto-clusters",
        class: None,
        title: "Auto-clusters",
        intro: "Jobs that agree on every attribute a match can depend on — the significant attributes — match the same machines, so the negotiator surveys the machines once per cluster and, once a cluster fails, skips the rest of it.",
    };
    match_view(props, frame, |jobs, machines| {
        html! {
            <ClusterBody session={props.session.clone()} pools={props.pools.clone()} {jobs} {machines} />
        }
    })
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    session: Session,
    pools: MatchPools,
    jobs: Rc<PoolInfo>,
    machines: Rc<PoolInfo>,
}

#[component]
fn ClusterBody(props: &BodyProps) -> Html {
    let answer = use_state(|| None::<Rc<Answer>>);
    let running = use_state(|| None::<f64>);
    let error = use_state(|| None::<String>);
    let page = use_state(|| 0usize);
    let key = (
        Rc::as_ptr(&props.jobs) as usize,
        Rc::as_ptr(&props.machines) as usize,
    );
    let run = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (answer, running, error, page) =
            (answer.clone(), running.clone(), error.clone(), page.clone());
        Callback::from(move |_: ()| {
            let started = now_ms();
            running.set(Some(started));
            error.set(None);
            let (answer, running, error, page) =
                (answer.clone(), running.clone(), error.clone(), page.clone());
            session.request(
                &args,
                |ids| PoolRequest::Autocluster {
                    jobs: ids[0].clone(),
                    machines: ids[1].clone(),
                },
                None,
                move |r: Result<classad::api::session::ClusterView, String>| {
                    running.set(None);
                    match r {
                        Ok(a) => {
                            page.set(0);
                            let order = members(&a.clustering.cluster_of, a.signatures.len());
                            answer.set(Some(Rc::new(Answer {
                                clusters: a,
                                order,
                                ms: now_ms() - started,
                            })));
                        }
                        Err(e) if e == CANCELLED => {}
                        Err(e) => error.set(Some(e)),
                    }
                },
            );
        })
    };
    {
        let run = run.clone();
        use_effect_with(key, move |_| run.emit(()));
    }
    if let Some(started) = *running {
        let s = props.session.clone();
        return html! { <Progress label="Clustering the jobs…" started={Some(started.to_owned())} on_cancel={Callback::from(move |_| s.cancel())} /> };
    }
    if let Some(e) = (*error).clone() {
        return html! { <p class="status v-error">{ format!("Clustering failed: {e}") }</p> };
    }
    let Some(a) = (*answer).clone() else {
        let r = run.clone();
        return html! { <p><button onclick={Callback::from(move |_| r.emit(()))}>{ "Cluster the jobs" }</button></p> };
    };
    let c = &a.clusters;
    let (jobs, k, machines) = (
        c.clustering.cluster_of.len(),
        c.signatures.len(),
        props.machines.ads,
    );
    let largest = a.order.first().map_or(0, |(_, v)| v.len());
    let saved = if jobs > 0 {
        100.0 * (1.0 - k as f64 / jobs as f64)
    } else {
        0.0
    };
    let pages = a.order.len().div_ceil(PAGE).max(1);
    let pg = (*page).min(pages - 1);
    let base: Vec<&String> = c.clustering.significant.iter().collect();
    let rows = a.order[pg * PAGE..((pg + 1) * PAGE).min(a.order.len())]
        .iter()
        .map(|(id, members)| {
            let sig = c.signatures.get(*id as usize).cloned().unwrap_or_default();
            let named: Vec<String> = members
                .iter()
                .take(NAMED)
                .map(|&j| c.job_labels.get(j as usize).cloned().unwrap_or_default())
                .collect();
            let rest = members.len().saturating_sub(NAMED);
            let pct = members.len() as f64 * 100.0 / largest.max(1) as f64;
            html! {
                <tr>
                    <td class="num">{ id }</td>
                    <td class="size">
                        <span class="bar" style={format!("width:{pct:.1}%")}></span>
                        <span class="size-n">{ thousands(members.len() as u64) }</span>
                    </td>
                    <td class="sig">
                        { for sig.iter().filter(|(a, _)| c.clustering.significant.contains(a)).map(|(attr, v)| html! {
                            <code class="sig-attr">{ format!("{attr} = {v}") }</code>
                        }) }
                        if sig.iter().any(|(a, _)| !c.clustering.significant.contains(a)) {
                            <div class="sig-own">
                                <span class="muted">{ "its own: " }</span>
                                { for sig.iter().filter(|(a, _)| !c.clustering.significant.contains(a)).map(|(attr, v)| html! {
                                    <code class="sig-attr own">{ format!("{attr} = {v}") }</code>
                                }) }
                            </div>
                        }
                    </td>
                    <td class="members">
                        { named.join(", ") }
                        if rest > 0 { <span class="muted">{ format!(" and {} more", thousands(rest as u64)) }</span> }
                    </td>
                </tr>
            }
        });
    let pager = |to: usize, label: &'static str, off: bool| {
        let page = page.clone();
        html! { <button disabled={off} onclick={Callback::from(move |_| page.set(to))}>{ label }</button> }
    };
    html! {
        <>
            <div class="reduction" id="reduction">
                <div class="big-number"><span>{ thousands(jobs as u64) }</span><small>{ "jobs" }</small></div>
                <div class="arrow">{ "→" }</div>
                <div class="big-number"><span>{ thousands(k as u64) }</span><small>{ "auto-clusters" }</small></div>
                <p>
                    { format!("The negotiator surveys the {} machines once per cluster instead of once per job: at most {} instead of {} requirement evaluations, {saved:.1}% of the work saved. The largest cluster has {}. Clustered in {}.",
                        thousands(machines as u64),
                        thousands(k as u64 * machines as u64),
                        thousands(jobs as u64 * machines as u64),
                        count(largest as u64, "job", "jobs"),
                        duration(a.ms)) }
                </p>
            </div>
            <h3>{ "Significant attributes" }</h3>
            <p class="muted">{ "What the machine ads refer to in a job, plus the job attributes the docking vector reads. Each job adds its own Requirements and Rank and what they refer to (\u{201c}its own\u{201d} below)." }</p>
            <p class="chips" id="significant">{ for base.iter().map(|a| html! { <code class="chip">{ (*a).clone() }</code> }) }</p>
            <h3>{ "Clusters, largest first" }</h3>
            if pages > 1 {
                <div class="table-tools"><span class="pager">
                    { pager(0, "First", pg == 0) }
                    { pager(pg.saturating_sub(1), "Previous", pg == 0) }
                    <span>{ format!("page {} of {}", pg + 1, pages) }</span>
                    { pager(pg + 1, "Next", pg + 1 >= pages) }
                    { pager(pages - 1, "Last", pg + 1 >= pages) }
                </span></div>
            }
            <div class="table-wrap">
                <table class="clusters" id="cluster-table">
                    <thead><tr><th class="num">{ "Cluster" }</th><th>{ "Jobs" }</th><th>{ "Signature (the first job's values)" }</th><th>{ "Jobs in it" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_largest_first() {
        assert_eq!(
            members(&[0, 1, 1, 2, 1, 2], 3),
            vec![(1, vec![1, 2, 4]), (2, vec![3, 5]), (0, vec![0])]
        );
        // An id out of range (a damaged answer) is dropped, not a panic.
        assert_eq!(members(&[0, 7], 1), vec![(0, vec![0])]);
    }
}
