import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { processTree, treeCpuMs } from "./process-cpu.ts";

// A parent that starts a child burning CPU, as wrangler starts workerd: the tree's count
// must include the child's work.
const busyGrandchild = `
  const { spawn } = require("node:child_process");
  spawn(process.execPath, ["-e", "const end = Date.now() + 1500; while (Date.now() < end) {} setInterval(() => {}, 1000);"], { stdio: "ignore" });
  setInterval(() => {}, 1000);
`;

describe.runIf(existsSync("/proc/self/schedstat"))("a process tree's CPU time", () => {
  it("counts the work of the processes below it", async () => {
    const parent = spawn(process.execPath, ["-e", busyGrandchild], { stdio: "ignore" });
    try {
      const pid = parent.pid!;
      let tree = processTree(pid);
      for (let i = 0; i < 50 && tree.length < 2; i++) {
        await sleep(50);
        tree = processTree(pid);
      }
      expect(tree).toHaveLength(2);
      const before = treeCpuMs(pid)!;
      await sleep(800);
      const after = treeCpuMs(pid)!;
      // The grandchild spins for 1.5 s: most of the 800 ms is its CPU time, not the idle parent's.
      expect(after - before).toBeGreaterThan(300);
      expect(after - before).toBeLessThan(2_000);
    } finally {
      for (const pid of processTree(parent.pid!).reverse()) process.kill(pid, "SIGKILL");
    }
  });

  it("has no figure for a process that is not there", () => {
    expect(treeCpuMs(2 ** 22 + 1)).toBeNull();
  });
});
