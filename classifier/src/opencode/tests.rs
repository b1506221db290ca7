//! Data-driven cases: OpenCode lines in, rows out (`icon|level|summary`, one row a line), through
//! every path that must agree (`crate::testing`).

use crate::testing::check;

const S: &str = r#""timestamp":1000,"sessionID":"ses_a""#;

fn line(ty: &str, part: &str) -> String {
    format!(r#"{{"type":"{ty}",{S},"part":{part}}}"#)
}

#[test]
fn stdout_lines_become_rows() {
    let start = line("step_start", r#"{"type":"step-start"}"#);
    let text = line("text", r#"{"type":"text","text":"Done."}"#);
    let think = line(
        "reasoning",
        r#"{"type":"reasoning","text":"**Planning**\n\nRead it."}"#,
    );
    let bash = line(
        "tool_use",
        r#"{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"exit 3"},"output":"no\n","metadata":{"exit":3}}}"#,
    );
    let read_err = line(
        "tool_use",
        r#"{"type":"tool","tool":"read","callID":"c2","state":{"status":"error","input":{"filePath":"/a/x.txt"},"error":"File not found: /a/x.txt"}}"#,
    );
    let grep = line(
        "tool_use",
        r#"{"type":"tool","tool":"grep","callID":"c3","state":{"status":"completed","input":{"pattern":"TODO","path":"/a","include":"*.rs"},"output":"Found 0 matches"}}"#,
    );
    let invalid = line(
        "tool_use",
        r#"{"type":"tool","tool":"invalid","callID":"c4","state":{"status":"completed","input":{"tool":"nope","error":"no"},"output":"The arguments provided to the tool are invalid"}}"#,
    );
    let tools = line(
        "step_finish",
        r#"{"type":"step-finish","reason":"tool-calls","tokens":{"input":5,"output":1,"reasoning":0,"cache":{"read":2,"write":0}},"cost":0.5}"#,
    );
    let stop = line(
        "step_finish",
        r#"{"type":"step-finish","reason":"stop","tokens":{"input":5,"output":1,"reasoning":0,"cache":{"read":2,"write":0}},"cost":0.25}"#,
    );
    check(
        &[
            &start, &think, &bash, &read_err, &grep, &invalid, &tools, &start, &text, &stop,
        ],
        &[
            "◆|info|TURN ← user",
            "💭|debug|Planning",
            "🖥️|info|Bash $ exit 3",
            "✗|error|exit 3 · no",
            "📖|info|Read /a/x.txt",
            "✗|error|File not found: /a/x.txt",
            "🔍|info|Grep TODO in /a · *.rs",
            "←|info|Found 0 matches",
            "🔧|info|invalid tool: \"nope\"",
            "✗|error|The arguments provided to the tool are invalid",
            "|info|",
            "✅|info|turn ok",
        ],
    );
}

#[test]
fn errors_retries_and_cut_runs() {
    let start = line("step_start", r#"{"type":"step-start"}"#);
    let err = format!(
        r#"{{"type":"error",{S},"error":{{"name":"APIError","data":{{"message":"Bad key.","statusCode":401}}}}}}"#
    );
    let other = r#"{"type":"step_start","timestamp":2000,"sessionID":"ses_b","part":{"type":"step-start"}}"#;
    let odd = line("snapshot", r#"{"type":"snapshot","snapshot":"abc"}"#);
    let bare = format!(r#"{{"type":"what",{S}}}"#);
    check(
        &[&start, &start, &err, &start, &odd, &bare, other],
        &[
            "◆|info|TURN ← user",
            "|warn|⚠ api retry · the model's answer was cut off; asked again",
            "|error|✗ api error · API error 401: Bad key.",
            "❌|error|turn fail — API error 401: Bad key.",
            "◆|info|TURN ← user",
            "|debug|⚙ snapshot part",
            "|debug|⚙ what",
            "⏹|warn|interrupted by user",
            "◆|info|TURN ← user",
        ],
    );
    let abort = format!(
        r#"{{"type":"error",{S},"error":{{"name":"MessageAbortedError","data":{{"message":"Aborted"}}}}}}"#
    );
    check(
        &[&abort],
        &["◆|info|TURN ← user", "⏹|warn|interrupted by user"],
    );
}

#[test]
fn an_export_on_one_line_shows_its_prompts_and_turns() {
    let doc = r#"{"info":{"id":"ses_a","version":"1.18.33","directory":"/w","title":"T"},"messages":[
        {"info":{"role":"user","time":{"created":1000}},"parts":[{"type":"text","text":"hi"},{"type":"text","text":"ctx","synthetic":true}]},
        {"info":{"role":"assistant","time":{"created":1100,"completed":1500}},"parts":[{"type":"step-start"},{"type":"text","text":"Hello."},{"type":"step-finish","reason":"stop","tokens":{"input":1,"output":1},"cost":0}]},
        {"info":{"role":"user","time":{"created":2000}},"parts":[{"type":"text","text":"again"}]},
        {"info":{"role":"assistant","time":{"created":2100,"completed":2200},"error":{"name":"APIError","data":{"message":"Down.","statusCode":500}}},"parts":[]},
        {"info":{"role":"user","time":{"created":3000}},"parts":[{"type":"text","text":"cut"}]},
        {"info":{"role":"user","time":{"created":4000}},"parts":[{"type":"text","text":"last"}]}]}"#
        .replace('\n', "");
    check(
        &[&doc],
        &[
            "|debug|⚙ opencode session ses_a · 1.18.33 · /w",
            "◆|info|TURN ← user",
            "|debug|⚙ context",
            "|info|",
            "✅|info|turn ok · 500ms",
            "◆|info|TURN ← user",
            "|error|✗ api error · API error 500: Down.",
            "❌|error|turn fail · 200ms — API error 500: Down.",
            "◆|info|TURN ← user",
            "⏹|warn|interrupted by user",
            "◆|info|TURN ← user",
        ],
    );
}

/// A store's session read a message at a time (each line an export of one message, as
/// `serve --agents` stores it): the session row once, the turns as in the whole export.
#[test]
fn an_export_a_message_a_line_shows_the_session_once() {
    let info = r#""info":{"id":"ses_a","version":"1.18.33"}"#;
    let user = format!(
        r#"{{"timestamp":1000,{info},"messages":[{{"info":{{"role":"user","time":{{"created":1000}}}},"parts":[{{"type":"text","text":"hi"}}]}}]}}"#
    );
    let answer = format!(
        r#"{{"timestamp":1100,{info},"messages":[{{"info":{{"role":"assistant","time":{{"created":1100,"completed":1400}}}},"parts":[{{"type":"text","text":"Hello."}},{{"type":"step-finish","reason":"stop"}}]}}]}}"#
    );
    check(
        &[&user, &answer, &user],
        &[
            "|debug|⚙ opencode session ses_a · 1.18.33",
            "◆|info|TURN ← user",
            "|info|",
            "✅|info|turn ok · 400ms",
            "◆|info|TURN ← user",
        ],
    );
}
