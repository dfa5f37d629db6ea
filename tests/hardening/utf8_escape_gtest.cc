// Invalid UTF-8 in a record (record/utf8.h) and escaping by kind of output (text/escape.h).
#include <gtest/gtest.h>

#include <string>

#include "record/utf8.h"
#include "text/escape.h"

namespace {

const std::string kReplacement = "\xEF\xBF\xBD";

std::string fixed(const std::string& text) {
  bool replaced = false;
  return gbx::valid_utf8(text, replaced);
}

TEST(Utf8, KeepsWellFormedText) {
  for (const std::string text :
       {"", "plain", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"}) {
    bool replaced = true;
    EXPECT_EQ(gbx::valid_utf8(text, replaced), text);
    EXPECT_FALSE(replaced) << text;
  }
}

TEST(Utf8, ReplacesEachBadByte) {
  EXPECT_EQ(fixed("a\xFF"
                  "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(fixed("\xC0\x80"), kReplacement + kReplacement);                     // overlong NUL
  EXPECT_EQ(fixed("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // a UTF-16 surrogate
  EXPECT_EQ(fixed("\xF4\x90\x80\x80").size(), 4 * kReplacement.size());          // past U+10FFFF
  EXPECT_EQ(fixed("x\xE2\x82"), "x" + kReplacement + kReplacement);              // cut short
}

TEST(Utf8, ReplacesInStringsAndKeysAndSaysWhere) {
  nlohmann::json value = {{"command", {"bench", "--x=\xFF"}}, {"env", {{"K\xFE", "v"}, {"ok", "fine"}}}};
  const std::vector<std::string> changed = gbx::replace_invalid_utf8(value);
  EXPECT_EQ(changed, (std::vector<std::string>{"/command/1", "/env/K" + kReplacement}));
  EXPECT_EQ(value["command"][1], "--x=" + kReplacement);
  EXPECT_EQ(value["env"]["K" + kReplacement], "v");
  EXPECT_NO_THROW((void)value.dump());  // strict: throws on invalid UTF-8
}

TEST(Escape, TerminalShowsControlsInsteadOfObeyingThem) {
  const std::string spoof = "x\rFAKE: 99% faster";
  EXPECT_EQ(gbx::terminal_text(spoof), "x\\rFAKE: 99% faster");
  const std::string osc8 = "\x1B]8;;https://evil\x1B\\click\x1B]8;;\x1B\\";
  EXPECT_EQ(gbx::terminal_text(osc8).find('\x1B'), std::string::npos);
  EXPECT_EQ(gbx::terminal_text("\x1B]0;title\x07"), "\\x1b]0;title\\x07");
  EXPECT_EQ(gbx::terminal_text("\xC2\x9B"
                               "31m"),
            "\\x9b31m");  // C1 CSI
  EXPECT_EQ(gbx::terminal_text("a\xE2\x80\xAE"
                               "b"),
            "a\\u202eb");  // right-to-left override
  EXPECT_EQ(gbx::terminal_text("bad\xFF"), "bad\\xff");
  EXPECT_EQ(gbx::terminal_text("BM_Sort<int>/n:8 caf\xC3\xA9"), "BM_Sort<int>/n:8 caf\xC3\xA9");
}

TEST(Escape, MarkdownRendersMarkupAsText) {
  EXPECT_EQ(gbx::markdown_text("<!--"), "&lt;\\!--");
  EXPECT_EQ(gbx::markdown_text("![](https://x/t.png)"), "\\!\\[\\](https://x/t.png)");
  EXPECT_EQ(gbx::markdown_text("a|b"), "a\\|b");
  EXPECT_EQ(gbx::markdown_text("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(gbx::markdown_text("**x** _y_ `z` ~~w~~"), "\\*\\*x\\*\\* \\_y\\_ \\`z\\` \\~\\~w\\~\\~");
  EXPECT_EQ(gbx::markdown_text("two\nlines\r"), "two lines ");
  EXPECT_EQ(gbx::markdown_text("&lt;"), "&amp;lt;");
  EXPECT_EQ(gbx::markdown_text("\x1B[31m"), "\\x1b\\[31m");
  EXPECT_EQ(gbx::markdown_cell(""), "-");
  EXPECT_EQ(gbx::markdown_code("a`b\nc"), "`a'b c`");
}

TEST(Escape, HtmlUsesCharacterReferences) {
  EXPECT_EQ(gbx::html_text("<!-- \"a\" & 'b' -->"), "&lt;!-- &quot;a&quot; &amp; &#39;b&#39; --&gt;");
}

}  // namespace
