#include "onramp/examples/example_sources.h"

#include <gtest/gtest.h>

namespace onramp::examples {
namespace example_sources_test {  // one per file: a unity batch joins several

using Texts = std::vector<std::string>;

// One field of each item, in order.
template <class Item>
Texts each(const std::vector<Item>& items, std::string Item::*field) {
  Texts out;
  for (const auto& item : items) out.push_back(item.*field);
  return out;
}

constexpr const char* kReadme = R"(# TorchTPU

Install:

```bash
pip install torch_tpu
```

~~~python
import torch
import torch_tpu
x = torch.randn((4,4), device="tpu")
~~~

Not code: ```python inline``` and

    indented = "not fenced"

```pycon
>>> 1 + 1
2
>>> for i in range(2):
...     print(i)
0
1
```
)";

TEST(ExampleSources, MarkdownPythonFencesBecomeBlocksWithFileLines) {
  auto file = extract_markdown(kReadme, "README.md");
  ASSERT_TRUE(file);
  ASSERT_EQ(file->blocks.size(), 2u);
  EXPECT_EQ(file->blocks[0].origin, "README.md:9");
  EXPECT_EQ(file->blocks[0].line, 10);
  EXPECT_EQ(file->blocks[0].code, "import torch\nimport torch_tpu\nx = torch.randn((4,4), device=\"tpu\")\n");
  ASSERT_EQ(file->shell.size(), 1u);
  EXPECT_EQ(file->shell[0].command, "pip install torch_tpu");
}

TEST(ExampleSources, ReplPromptsAreStrippedKeepingLineNumbers) {
  auto file = extract_markdown(kReadme, "README.md");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->blocks[1].code, "1 + 1\n\nfor i in range(2):\n    print(i)\n\n\n");
}

TEST(ExampleSources, NotebookCodeCellsAndShellEscapes) {
  auto file = extract_notebook(R"nb({"cells": [
    {"cell_type": "markdown", "source": ["# hi"]},
    {"cell_type": "code", "source": ["!pip install torch_tpu\n", "import torch\n"]},
    {"cell_type": "code", "source": "torch.ones(1)"}]})nb",
                               "demo.ipynb");
  ASSERT_TRUE(file);
  ASSERT_EQ(each(file->blocks, &CodeBlock::code), (Texts{"\nimport torch\n", "torch.ones(1)\n"}));
  EXPECT_EQ(file->blocks[0].origin, "demo.ipynb cell 2");
  EXPECT_EQ(each(file->shell, &ShellCommand::command), Texts{"!pip install torch_tpu"});
}

TEST(ExampleSources, BadNotebookNamesTheFile) {
  auto file = extract_notebook("{not json", "broken.ipynb");
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message.find("broken.ipynb"), std::string::npos);
}

// A cell_type that is not a string once escaped as a JSON type error.
TEST(ExampleSources, NotebookCellsOfOddShapesAreSkipped) {
  auto file = extract_notebook(R"({"cells": [{"cell_type": 1}, {"cell_type": null}, 7,
                                   {"cell_type": "code", "source": 5}]})",
                               "odd.ipynb");
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_EQ(file->blocks.size(), 1u);
  EXPECT_EQ(file->blocks[0].code, "");
}

TEST(ExampleSources, NotebookMarkdownCellsAreReadLikeAReadme) {
  auto file = extract_notebook(R"nb({"cells": [
    {"cell_type": "markdown", "source": ["# Try\n", "```bash\n", "pip install x\n", "```\n", "```python\n", "import os\n",
                                          "```\n", "```diff\n", "+import x\n", "```\n"]},
    {"cell_type": "code", "source": "os.getcwd()"}]})nb",
                               "nb.ipynb");
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->prose_cells, 1u);
  ASSERT_EQ(each(file->blocks, &CodeBlock::origin), (Texts{"nb.ipynb cell 1:5", "nb.ipynb cell 2"}));
  EXPECT_EQ(file->blocks[0].line, 6);
  EXPECT_EQ(file->blocks[0].code, "import os\n");
  EXPECT_EQ(each(file->shell, &ShellCommand::origin), Texts{"nb.ipynb cell 1:2"});
  EXPECT_EQ(each(file->diffs, &DiffText::text), Texts{"+import x\n"});
}

TEST(ExampleSources, MarkdownDiffAndPatchFencesAreKeptForTheDocumentedPort) {
  auto file = extract_markdown("```diff\n-a\n+b\n```\n\n```patch\n+c\n```\n\n```text\n+d\n```\n", "R.md");
  ASSERT_TRUE(file);
  ASSERT_EQ(file->diffs.size(), 2u);
  EXPECT_EQ(file->diffs[0].origin, "R.md:1");
  EXPECT_EQ(file->diffs[1].origin, "R.md:6");
}

TEST(ExampleSources, MarimoNotebookIsDetected) {
  EXPECT_TRUE(is_marimo_notebook("import marimo\napp = marimo.App()\n@app.cell\ndef _():\n    return\n"));
  EXPECT_FALSE(is_marimo_notebook("import torch\n"));
}

}  // namespace
}  // namespace onramp::examples
