// The TypeScript declarations js/build.sh generates from proto/ (dist/gen,
// protoc-gen-es) carry the proto comments as their documentation: no
// linter directive may be among them (issue 34: a buf:lint:ignore of
// RenderState's comment showed in editors; the exception is in buf.yaml).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";

test("no linter directive in the generated declarations", async () => {
  const dir = new URL("../dist/gen/", import.meta.url);
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith(".ts"));
  assert.ok(files.length >= 5, `dist/gen holds ${files.length} declaration files`);
  let renderDocumented = false;
  for (const f of files) {
    const text = await readFile(new URL(f, dir), "utf8");
    for (const directive of ["buf:lint", "buf:breaking"]) {
      assert.ok(!text.includes(directive), `dist/gen/${f} holds ${directive}`);
    }
    renderDocumented ||= text.includes("RenderState draws the board");
  }
  assert.ok(renderDocumented, "RenderState's comment is in the declarations");
});
