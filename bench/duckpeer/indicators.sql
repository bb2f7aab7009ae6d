-- The DuckDB side of bench/compare.sh: the SQL a competent DuckDB user would
-- write to get runaway's core per-run indicators from the JSONL step logs
-- (docs/indicators.md). duckpeer substitutes __FILES__ (a list literal of
-- the input paths), __WINDOW__ (20) and __MAX_STEPS__ (the default max_steps
-- budget, 0 = none) and runs the statements in order. See
-- docs/performance.md for what this approximates.

-- 1. Load: one row per step with what the indicators need, in run order
-- (step, then ts). read_json with an explicit column spec (no schema
-- sniffing), newline-delimited, compression detected (.gz, .zst); malformed
-- lines are skipped, as runaway rejects them. Only the fields the indicators
-- read are parsed.
--
-- The call key is (tool, args_hash); without a logged args_hash the user
-- hashes the args JSON text, which is NOT canonical: DuckDB re-serialises it
-- without whitespace but keeps key order, so {"a":1,"b":2} and {"b":2,"a":1}
-- are different calls (runaway hashes the RFC 8785 canonical form).
CREATE TEMP TABLE steps AS
WITH s AS (
    SELECT
        run_id,
        row_number() OVER (PARTITION BY run_id ORDER BY step, ts) AS pos,
        nullif(upper(trim(state)), '') AS state,
        (tool_call.name IS NOT NULL OR tool_call.args_hash IS NOT NULL) AS is_call,
        tool_call.name AS tool,
        hash(tool_call.name,
             coalesce(tool_call.args_hash, 'sha256:' || sha256(CAST(tool_call.args AS VARCHAR)))) AS call_key,
        tool_result IS NOT NULL AS has_result,
        coalesce(NOT tool_result.ok, coalesce(tool_result.error_type, '') <> '') AS is_error,
        coalesce(tool_result."empty", false)
            OR coalesce(tool_result.result_count = 0, false)
            OR coalesce(NOT tool_result.found, false)
            OR coalesce(CAST(tool_result.items AS VARCHAR) = '[]', false)
            OR coalesce(CAST(tool_result.data AS VARCHAR) = '[]', false)
            OR coalesce(json_type(tool_result.data) = 'VARCHAR' AND trim(tool_result.data ->> '$') = '', false)
            -- "data": null reads as SQL NULL, the same as no data: not seen as empty.
            AS empty_raw,
        hash(tool_result.ok, tool_result.error_type, tool_result.status, tool_result."empty",
             tool_result.found, tool_result.result_count, CAST(tool_result.items AS VARCHAR),
             CAST(tool_result.data AS VARCHAR)) AS outcome,
        (tool_result.items IS NOT NULL OR tool_result.data IS NOT NULL
            OR tool_result.result_count IS NOT NULL) AS has_payload,
        coalesce(len(memory.written) > 0
            AND (list_has_any(memory.write_tags, ['observation', 'decision'])
                 OR list_has_any(list_transform(memory.entries, e -> e."type"), ['observation', 'decision']))
            AND NOT coalesce(list_has_any(memory.write_tags, ['inference', 'tool_error']), false)
            AND NOT coalesce(list_has_any(list_transform(memory.entries, e -> e."type"), ['inference', 'tool_error']), false)
            , false) AS mem_progress,
        artifacts,
        budget.max_steps AS max_steps
    FROM read_json(__FILES__,
        format = 'newline_delimited',
        compression = 'auto_detect',
        ignore_errors = true,
        maximum_object_size = 16777216,
        columns = {
            run_id: 'VARCHAR',
            step: 'BIGINT',
            ts: 'VARCHAR',
            state: 'VARCHAR',
            tool_call: 'STRUCT(name VARCHAR, args JSON, args_hash VARCHAR)',
            tool_result: 'STRUCT(ok BOOLEAN, error_type VARCHAR, status BIGINT, "empty" BOOLEAN, result_count BIGINT, items JSON, found BOOLEAN, data JSON)',
            memory: 'STRUCT(written VARCHAR[], write_tags VARCHAR[], entries STRUCT(id VARCHAR, "type" VARCHAR)[])',
            artifacts: 'VARCHAR[]',
            budget: 'STRUCT(max_steps BIGINT)'
        })
    WHERE run_id IS NOT NULL AND run_id <> '' AND step >= 0
)
SELECT
    * EXCLUDE (empty_raw),
    has_result AND NOT is_error AND empty_raw AS is_empty
FROM s;

-- 2. Progress events: a new artifact id; memory written as observation or
-- decision (nothing tagged inference or tool_error); a call that returned
-- ok, non-empty data whose outcome differs from the previous answer for its
-- key and, when the result shows what it returned (items, data,
-- result_count), that this tool has not returned earlier in the run; STOP.
CREATE TEMP TABLE new_artifact AS
SELECT run_id, min(pos) AS pos
FROM (SELECT run_id, pos, unnest(artifacts) AS artifact FROM steps WHERE len(artifacts) > 0)
GROUP BY run_id, artifact;

CREATE TEMP TABLE progress AS
WITH calls AS (
    SELECT run_id, pos,
        has_result AND NOT is_error AND NOT is_empty AS ok_data,
        has_payload,
        lag(outcome) OVER (PARTITION BY run_id, call_key ORDER BY pos) IS DISTINCT FROM outcome AS new_outcome,
        count(*) FILTER (WHERE has_result AND NOT is_error AND NOT is_empty AND has_payload)
            OVER (PARTITION BY run_id, tool, outcome ORDER BY pos
                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS same_answer_before
    FROM steps
    WHERE is_call
),
call_progress AS (
    SELECT run_id, pos,
        ok_data AND new_outcome AND (NOT has_payload OR same_answer_before = 0) AS new_info
    FROM calls
)
SELECT s.run_id, s.pos, s.state, s.is_call,
    coalesce(c.new_info, false) OR s.mem_progress OR s.state IS NOT DISTINCT FROM 'STOP'
        OR s.pos IN (SELECT a.pos FROM new_artifact a WHERE a.run_id = s.run_id) AS prog
FROM steps s
LEFT JOIN call_progress c USING (run_id, pos);

-- 3. Per run indicators, and whether the run crosses one of runaway's default
-- "runaway" thresholds (detect.DefaultPolicy: same call 5 times in the
-- window, error streak 6, 5 PLAN<->ACT round trips without progress, 20
-- steps without progress, 1.5 times the max_steps budget). This is the flag
-- a user would put on thresholds; runaway's detectors also check results,
-- confounders and root causes.
--
-- Every CTE is MATERIALIZED: DuckDB otherwise inlines a CTE at each use and
-- recomputes its windows; on the 1 GB corpus this statement took 20-30 s
-- instead of 4 s.
CREATE TEMP TABLE runs AS
SELECT *,
    same_args_hash_max_window >= 5
        OR max_error_streak >= 6
        OR plan_act_round_trips_no_progress >= 5
        OR no_progress_steps >= 20
        OR (budget_max_steps > 0 AND steps - ended_with_stop::INT >= 1.5 * budget_max_steps) AS flagged
FROM (
WITH
-- Calls in order: most calls of one key, in any window of __WINDOW__
-- consecutive calls, and in a row (gaps and islands).
calls AS MATERIALIZED (
    SELECT run_id, call_key, pos,
        row_number() OVER (PARTITION BY run_id ORDER BY pos) AS ci
    FROM steps WHERE is_call
),
call_win AS MATERIALIZED (
    SELECT run_id, call_key,
        count(*) OVER (PARTITION BY run_id, call_key ORDER BY ci
                       RANGE BETWEEN __WINDOW__ - 1 PRECEDING AND CURRENT ROW) AS in_window,
        ci - row_number() OVER (PARTITION BY run_id, call_key ORDER BY ci) AS island
    FROM calls
),
call_stats AS MATERIALIZED (
    SELECT run_id,
        count(*) AS tool_calls,
        count(DISTINCT call_key) AS distinct_calls,
        max(in_window) AS same_args_hash_max_window
    FROM call_win GROUP BY run_id
),
call_key_count AS MATERIALIZED (
    SELECT run_id, max(n) AS same_args_hash_count
    FROM (SELECT run_id, count(*) AS n FROM calls GROUP BY run_id, call_key)
    GROUP BY run_id
),
call_streak AS MATERIALIZED (
    SELECT run_id, max(n) AS same_args_hash_max_streak
    FROM (SELECT run_id, count(*) AS n FROM call_win GROUP BY run_id, call_key, island)
    GROUP BY run_id
),
-- Results of calls in order: errors and the longest error streak.
results AS MATERIALIZED (
    SELECT run_id, is_error, is_empty,
        row_number() OVER (PARTITION BY run_id ORDER BY pos)
          - row_number() OVER (PARTITION BY run_id, is_error ORDER BY pos) AS island
    FROM steps WHERE is_call AND has_result
),
result_stats AS MATERIALIZED (
    SELECT run_id,
        coalesce(sum(n) FILTER (WHERE is_error), 0) AS tool_errors,
        sum(empties) AS empty_results,
        coalesce(max(n) FILTER (WHERE is_error), 0) AS max_error_streak
    FROM (SELECT run_id, is_error, count(*) AS n, count(*) FILTER (WHERE is_empty) AS empties
          FROM results GROUP BY run_id, is_error, island)
    GROUP BY run_id
),
-- Progress: the longest streak of steps without a progress event. Each
-- progress step opens a new group; count the steps without one per group.
no_progress AS MATERIALIZED (
    SELECT run_id, sum(p) AS progress_events, max(n) AS no_progress_steps
    FROM (SELECT run_id, count(*) FILTER (WHERE NOT prog) AS n, count(*) FILTER (WHERE prog) AS p
          FROM (SELECT run_id, prog,
                    sum(prog::INT) OVER (PARTITION BY run_id ORDER BY pos ROWS UNBOUNDED PRECEDING) AS g
                FROM progress)
          GROUP BY run_id, g)
    GROUP BY run_id
),
-- States (steps without one skipped): X->Y->X returns, and PLAN segments.
states AS MATERIALIZED (
    SELECT run_id, pos, state, prog,
        lag(state, 1) OVER w AS prev1,
        lag(state, 2) OVER w AS prev2
    FROM progress WHERE state IS NOT NULL
    WINDOW w AS (PARTITION BY run_id ORDER BY pos)
),
segments AS MATERIALIZED (
    SELECT run_id, state, prog, prev1, prev2,
        sum((state = 'PLAN' AND prev1 IS DISTINCT FROM 'PLAN')::INT)
            OVER (PARTITION BY run_id ORDER BY pos ROWS UNBOUNDED PRECEDING) AS seg
    FROM states
),
state_stats AS MATERIALIZED (
    SELECT run_id, sum(osc) AS state_oscillation, max(seg) AS plans,
        count(*) FILTER (WHERE seg >= 1 AND seg < last_seg AND has_act) AS plan_act_round_trips,
        count(*) FILTER (WHERE seg >= 1 AND seg < last_seg AND has_act AND NOT has_prog) AS plan_act_round_trips_no_progress
    FROM (SELECT run_id, seg,
              sum((prev2 IS NOT NULL AND state = prev2 AND state <> prev1)::INT) AS osc,
              bool_or(state = 'ACT') AS has_act,
              bool_or(prog) AS has_prog,
              max(seg) OVER (PARTITION BY run_id) AS last_seg
          FROM segments GROUP BY run_id, seg)
    GROUP BY run_id
),
-- Budget (max_steps only): the tightest positive logged limit, else the
-- default; a STOP step without a call does not count as a step.
budget AS MATERIALIZED (
    SELECT s.run_id, s.pos, s.counted, coalesce(l.lim, __MAX_STEPS__) AS lim
    FROM (SELECT run_id, pos,
              sum((NOT (state IS NOT DISTINCT FROM 'STOP' AND NOT is_call))::INT)
                  OVER (PARTITION BY run_id ORDER BY pos ROWS UNBOUNDED PRECEDING) AS counted
          FROM steps) s
    LEFT JOIN (SELECT run_id, min(max_steps) FILTER (WHERE max_steps > 0) AS lim FROM steps GROUP BY run_id) l
        USING (run_id)
),
budget_stats AS MATERIALIZED (
    SELECT run_id, any_value(lim) AS budget_max_steps,
        min(pos) FILTER (WHERE lim > 0 AND counted > lim) AS cross_pos
    FROM budget GROUP BY run_id
),
step_stats AS MATERIALIZED (
    SELECT run_id, count(*) AS steps,
        arg_max(state, pos) IS NOT DISTINCT FROM 'STOP' AS ended_with_stop
    FROM steps GROUP BY run_id
)
SELECT
    st.run_id,
    st.steps,
    coalesce(cs.tool_calls, 0) AS tool_calls,
    coalesce(cs.distinct_calls, 0) AS distinct_calls,
    coalesce(kc.same_args_hash_count, 0) AS same_args_hash_count,
    coalesce(cs.same_args_hash_max_window, 0) AS same_args_hash_max_window,
    coalesce(sk.same_args_hash_max_streak, 0) AS same_args_hash_max_streak,
    coalesce(ss.state_oscillation, 0) AS state_oscillation,
    coalesce(ss.plans, 0) AS plans,
    coalesce(ss.plan_act_round_trips, 0) AS plan_act_round_trips,
    coalesce(ss.plan_act_round_trips_no_progress, 0) AS plan_act_round_trips_no_progress,
    np.progress_events,
    np.no_progress_steps,
    coalesce(rs.tool_errors, 0) AS tool_errors,
    coalesce(rs.max_error_streak, 0) AS max_error_streak,
    coalesce(rs.empty_results, 0) AS empty_results,
    coalesce(bs.budget_max_steps, 0) AS budget_max_steps,
    (bs.cross_pos IS NOT NULL)::INT AS budget_crossings,
    coalesce(st.steps - bs.cross_pos + 1, 0) AS steps_after_budget,
    st.ended_with_stop
FROM step_stats st
LEFT JOIN call_stats cs USING (run_id)
LEFT JOIN call_key_count kc USING (run_id)
LEFT JOIN call_streak sk USING (run_id)
LEFT JOIN result_stats rs USING (run_id)
LEFT JOIN no_progress np USING (run_id)
LEFT JOIN state_stats ss USING (run_id)
LEFT JOIN budget_stats bs USING (run_id)
);

-- 4. Summary: rows, runs, and the runs over each threshold.
SELECT
    (SELECT count(*) FROM steps) AS rows,
    count(*) AS runs,
    count(*) FILTER (WHERE same_args_hash_max_window >= 5) AS same_call_window_ge5,
    count(*) FILTER (WHERE same_args_hash_max_streak >= 5) AS same_call_streak_ge5,
    count(*) FILTER (WHERE max_error_streak >= 6) AS error_streak_ge6,
    count(*) FILTER (WHERE plan_act_round_trips_no_progress >= 5) AS plan_loop_ge5,
    count(*) FILTER (WHERE no_progress_steps >= 20) AS no_progress_ge20,
    count(*) FILTER (WHERE budget_crossings > 0) AS budget_crossed,
    count(*) FILTER (WHERE flagged) AS flagged_any
FROM runs;
