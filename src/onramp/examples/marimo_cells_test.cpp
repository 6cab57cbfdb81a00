#include "onramp/examples/marimo_cells.h"

#include <gtest/gtest.h>

namespace onramp::examples {
namespace marimo_cells_test {  // one per file: a unity batch joins several

const char* kNotebook = R"(import marimo

app = marimo.App()


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        r"""
        # Title

        ```bash
        pip install thing
        ```

        ```python
        import math
        ```
        """
    )
    return


@app.cell
def _(b):
    c = b + 1
    return (c,)


@app.cell
def _(
    a,
):
    b = a * 2
    return b,


@app.cell
def _():
    a = 1
    import marimo as mo
    return (
        a,
        mo,
    )


if __name__ == "__main__":
    app.run()
)";

TEST(MarimoCells, ParametersAreInputsAndTheFinalReturnListsOutputs) {
  auto cells = marimo_cells(kNotebook);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_TRUE(cells[0].prose);
  EXPECT_EQ(cells[0].inputs, std::vector<std::string>{"mo"});
  EXPECT_TRUE(cells[0].outputs.empty());
  EXPECT_EQ(cells[1].inputs, std::vector<std::string>{"b"});
  EXPECT_EQ(cells[1].outputs, std::vector<std::string>{"c"});
  EXPECT_EQ(cells[1].code, "c = b + 1\n");
  EXPECT_EQ(cells[1].body_line, 26);
  EXPECT_EQ(cells[2].inputs, std::vector<std::string>{"a"});
  EXPECT_EQ(cells[2].outputs, std::vector<std::string>{"b"});
  EXPECT_EQ(cells[3].outputs, (std::vector<std::string>{"a", "mo"}));
  EXPECT_EQ(cells[3].code, "a = 1\nimport marimo as mo\n");
}

TEST(MarimoCells, CellsRunInDependencyOrderNotFileOrder) {
  auto order = marimo_order(marimo_cells(kNotebook));
  EXPECT_EQ(order, (std::vector<size_t>{3, 0, 2, 1}));
}

TEST(MarimoCells, ProseIsReadAsMarkdownWithItsLinesInTheFile) {
  auto file = extract_marimo(kNotebook, "nb.py");
  EXPECT_EQ(file.prose_cells, 1u);
  ASSERT_EQ(file.shell.size(), 1u);
  EXPECT_EQ(file.shell[0].command, "pip install thing");
  EXPECT_EQ(file.shell[0].origin, "nb.py:12");
  ASSERT_EQ(file.blocks.size(), 4u);  // three code cells and the prose's python fence
  EXPECT_EQ(file.blocks[0].origin, "nb.py:39");
  EXPECT_EQ(file.blocks[1].origin, "nb.py:16");
  EXPECT_EQ(file.blocks[1].line, 17);
  EXPECT_EQ(file.blocks[1].code, "import math\n");
  EXPECT_EQ(file.blocks[2].code, "b = a * 2\n");
}

TEST(MarimoCells, TheSetupRunsFirstThenTopLevelFunctionsThenCells) {
  const char* text = R"(import marimo

app = marimo.App()

@app.cell
def _(double):
    double(2)
    return


with app.setup:
    import torch


@app.function
def double(x):
    return 2 * x
)";
  auto file = extract_marimo(text, "nb.py");
  ASSERT_EQ(file.blocks.size(), 3u);
  EXPECT_EQ(file.blocks[0].code, "import torch\n\n\n");
  EXPECT_EQ(file.blocks[0].line, 12);
  EXPECT_EQ(file.blocks[1].code, "def double(x):\n    return 2 * x\n");
  EXPECT_EQ(file.blocks[1].line, 16);
  EXPECT_EQ(file.blocks[2].code, "double(2)\n");
}

TEST(MarimoCells, TruncatedNotebooksAreReadAsFarAsTheyGo) {
  EXPECT_TRUE(marimo_cells("import marimo\n@app.cell\n").empty());
  EXPECT_EQ(marimo_cells("import marimo\n@app.cell\ndef _(\n").size(), 1u);
  auto unterminated = marimo_cells("@app.cell\ndef _(mo):\n    mo.md(r\"\"\"# Title\n    ```bash\n    ls\n");
  ASSERT_EQ(unterminated.size(), 1u);
  EXPECT_FALSE(unterminated[0].prose);  // it never closes its call
  EXPECT_EQ(marimo_cells("with app.setup:\n@app.function\n").size(), 1u);  // the empty setup; no def follows
}

TEST(MarimoCells, ACycleStillRunsEveryCellOnce) {
  auto cells = marimo_cells("@app.cell\ndef _(y):\n    x = y\n    return (x,)\n\n@app.cell\ndef _(x):\n    y = x\n    return (y,)\n");
  EXPECT_EQ(marimo_order(cells), (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace onramp::examples
