#pragma once

#include <string>

// One escaping function per kind of output, for every text that comes from a record or a run
// (benchmark names, error messages, host, branch, command line): such text is data, and must render
// as itself, never as markup or as a terminal command.
namespace gbx {

// For a terminal: C0 and C1 control characters, DEL, invalid UTF-8 and Unicode's bidirectional
// overrides become visible escapes (\x1b, \r, \u202e), so that a name cannot move the cursor,
// rewrite a line (x\rFAKE), set the window title or open an OSC 8 hyperlink.
std::string terminal_text(const std::string& text);

// Prose in Markdown as GitHub renders it: HTML and comments (<!--), links and images (![](...)),
// emphasis, code, strikethrough and table pipes are escaped, and a line break becomes a space, so
// the text renders as itself on one line. Control characters as in terminal_text.
std::string markdown_text(const std::string& text);

// A Markdown table cell: markdown_text, or "-" for an empty one.
std::string markdown_cell(const std::string& text);

// A Markdown code span: nothing in it is markup, but a backtick would close it and a line break end
// it. Control characters as in terminal_text.
std::string markdown_code(const std::string& text);

// HTML text or a quoted attribute value: & < > " ' become character references.
std::string html_text(const std::string& text);

// Text inside an HTML <script> element, the one escaper for it. Nothing in it may end the element
// early or switch the parser into the script's escaped states:
// - code: "</script" in any case becomes "<\/script" and "<!--" becomes "<\u0021--", which mean the
//   same in a JavaScript string, template, regular expression or comment (escaping every "</" would
//   not: it would break a regular expression such as /</g);
// - json: every '<' becomes \u003c, which JSON allows only in strings, where it is the same text.
// Appends to out: pages are built by appending.
enum class ScriptContent { code, json };
void append_script_text(std::string& out, const std::string& text, ScriptContent content);
std::string script_text(const std::string& text, ScriptContent content);

}  // namespace gbx
