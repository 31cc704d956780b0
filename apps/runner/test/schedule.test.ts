/**
 * `serve` of the schedule trigger (`schedule/v1/cron`) through the bin, live (a tick is wall
 * time): every second, one run per tick keyed by its time, a `kill -9` and a restart with
 * `missed: "runLast"` (the newest missed tick runs once, no other gap, nothing twice), two
 * runners on PostgreSQL running each tick once; `sample` listing the weekly example's next
 * five ticks; a bad cron or time zone refused before anything runs. Counts, not speed: the
 * assertions hold on a busy machine (ticks that come due late still run, each once).
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startPostgres } from "../../../tooling/testing/postgres.mjs"
import { freePort, runner, runsOf, served, type Served, stallMs } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-schedule-"))
/** Every second; each run reads the tick's time (a wait until it: already past, so at once). */
const everySecond = (missed: "skip" | "runLast") => {
  const file = join(dir, `every-second-${missed}.json`)
  writeFileSync(file, JSON.stringify({
    label: "Every second",
    triggers: [{ label: "Each second", name: "tick", type: "schedule/v1/cron", parameters: { cron: "*/1 * * * * *", missed } }],
    tasks: [{ label: "Until the tick", name: "due", until: "timestamp(trigger.scheduledAt)" }]
  }))
  return file
}
const second = 1000
const at = (ms: number) => new Date(ms).toISOString()
/** The first tick a runner waits for, from its `● … next tick` line. */
const nextTickOf = async (runner: Served) => {
  await runner.waitFor(/next tick \S+Z/)
  return Date.parse(/next tick (\S+Z)/.exec(runner.log())![1]!)
}
/** The ticks a runner's log says it started a run for (not those it found run already). */
const startedIn = (log: string) => [...log.matchAll(/· tick (\S+Z): run started/g)].map((match) => match[1]!)
const sorted = (ticks: Iterable<string>) => [...ticks].sort()
const weekly = fileURLToPath(new URL("../examples/weekly-schedule.json", import.meta.url))

describe("x-runner serve, a schedule", () => {
  it("every second: one run per tick, each once, reading trigger.scheduledAt; killed (-9) and started again with missed: runLast, " +
    "the newest missed tick runs once and no other is lost or repeated", async () => {
    const workflow = everySecond("runLast")
    const dataDir = join(dir, "restart")
    const first = served(["serve", workflow, "--data-dir", dataDir])
    const t0 = await nextTickOf(first)
    // Five seconds of ticks: T0 … T0+4s.
    await first.waitFor(`■ event ${at(t0 + 4 * second)} succeeded`)
    first.child.kill("SIGKILL")
    const killedAt = Date.now()
    await first.exited
    // At least one tick comes due while nothing serves (a restart is slower than that anyway).
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const beforeKill = sorted((await runsOf({ dataDir })).map((run) => run.event))
    // The five seconds from T0 fired five runs, one per tick; any later one was due before the kill
    // (a runner behind on a busy machine catches up: its late ticks all run).
    expect(beforeKill.filter((tick) => Date.parse(tick) < t0 + 5 * second)).toEqual([0, 1, 2, 3, 4].map((n) => at(t0 + n * second)))
    expect(beforeKill.every((tick) => Date.parse(tick) <= killedAt)).toBe(true)
    const lastBefore = Date.parse(beforeKill[beforeKill.length - 1]!)

    const again = served(["serve", workflow, "--data-dir", dataDir])
    await again.waitFor(/↻ \d+ ticks? came due while nothing served every-second-runLast: the newest \(\S+\) runs once/)
    const [, missedCount, newestText] = /↻ (\d+) ticks? came due while nothing served every-second-runLast: the newest \((\S+)\) runs once/.exec(again.log())!
    const newest = Date.parse(newestText!)
    // The ticks between the last one run and the restart were missed, the newest of them counted
    // in (one more when the kill came between a tick's run and its cursor: that one is not run again).
    expect(Number(missedCount) - (newest - lastBefore) / second).toBeOneOf([0, 1])
    await again.waitFor(`■ event ${at(newest + 2 * second)} succeeded`)
    again.child.kill("SIGTERM")
    await again.exited

    const runs = await runsOf({ dataDir })
    const events = sorted(runs.map((run) => run.event))
    expect(new Set(events).size).toBe(events.length)
    expect(runs.every((run) => run.status === "succeeded")).toBe(true)
    // One gap only, between the last tick before the kill and the newest missed one: nothing else lost.
    const expected = [
      ...Array.from({ length: (lastBefore - t0) / second + 1 }, (_, n) => at(t0 + n * second)),
      ...Array.from({ length: (Date.parse(events[events.length - 1]!) - newest) / second + 1 }, (_, n) => at(newest + n * second))
    ]
    expect(events).toEqual(expected)
    // A tick started once, across both runners' lives.
    const started = [...startedIn(first.log()), ...startedIn(again.log())]
    expect(new Set(started).size).toBe(started.length)
    // The run read its tick: the wait's `until` is trigger.scheduledAt, the trigger's output has both times.
    const shown = JSON.parse((await runner(["runs", "show", runs.find((run) => run.event === at(newest))!.id, "--data-dir", dataDir, "--output", "json"])).stdout)
    expect(shown.trigger).toEqual({ scheduledAt: at(newest), firedAt: expect.stringMatching(/Z$/) })
    expect(Date.parse(shown.trigger.firedAt)).toBeGreaterThan(newest)
    expect(shown.steps).toMatchObject([{ name: "due", status: "succeeded", output: { until: at(newest) } }])
  })

  it("missed: skip (the default's) runs none of the ticks missed while stopped", async () => {
    const workflow = everySecond("skip")
    const dataDir = join(dir, "skip")
    const first = served(["serve", workflow, "--data-dir", dataDir])
    const t0 = await nextTickOf(first)
    await first.waitFor(`■ event ${at(t0)} succeeded`)
    first.child.kill("SIGTERM")
    await first.exited
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const lastBefore = Date.parse(sorted((await runsOf({ dataDir })).map((run) => run.event)).at(-1)!)
    const port = await freePort()
    const again = served(["serve", workflow, "--data-dir", dataDir, "--port", String(port)])
    await again.waitFor(/○ \d+ ticks? came due while nothing served every-second-skip: skipped/)
    const resumed = await nextTickOf(again)
    await again.waitFor(`■ event ${at(resumed)} succeeded`)
    // /healthz lists the schedule as kept here.
    const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json() as { workflows: ReadonlyArray<unknown> }
    expect(health.workflows).toEqual([{ name: "every-second-skip", trigger: "schedule/v1/cron", state: "scheduled" }])
    again.child.kill("SIGTERM")
    await again.exited
    const events = sorted((await runsOf({ dataDir })).map((run) => run.event))
    // Nothing between the last tick before the stop and the first tick after the start.
    expect(events.filter((event) => Date.parse(event) > lastBefore && Date.parse(event) < resumed)).toEqual([])
    expect(events).toContain(at(resumed))
  })

  it("two runners on PostgreSQL serving the same schedule: each tick runs once", async () => {
    const postgres = await startPostgres()
    try {
      const workflow = everySecond("runLast")
      const start = (name: string) => served(["serve", workflow, "--database", postgres.url, "--data-dir", join(dir, `pg-${name}`)])
      const a = start("a")
      const b = start("b")
      await Promise.all([a.waitFor("● runner"), b.waitFor("● runner")])
      // Six ticks run by whichever runner keeps the schedule (the cluster's singleton).
      const ran = () => startedIn(a.log()).length + startedIn(b.log()).length
      for (const giveUp = Date.now() + stallMs; ran() < 6; await new Promise((resolve) => setTimeout(resolve, 100))) {
        if (Date.now() > giveUp) throw new Error(`${ran()} ticks ran in ${stallMs / 1000} s:\n${a.log()}\n${b.log()}`)
      }
      a.child.kill("SIGTERM")
      b.child.kill("SIGTERM")
      await Promise.all([a.exited, b.exited])
      const started = [...startedIn(a.log()), ...startedIn(b.log())]
      expect(new Set(started).size).toBe(started.length)
      const runs = await runsOf({ database: postgres.url })
      const events = sorted(runs.map((run) => run.event))
      expect(events.length).toBeGreaterThanOrEqual(6)
      // One run per tick, none skipped while served. A keeper stalled past its shard lock (a
      // machine busy enough to starve it 5 s) counts as no longer serving: its successor runs the
      // newest of the ticks that came due meanwhile (missed: runLast) and says so. Only such a
      // gap, said by the runner that ended it, may be in the runs.
      const log = a.log() + b.log()
      const gaps = events.slice(1).flatMap((event, n) => Date.parse(event) - Date.parse(events[n]!) === second ? [] : [event])
      expect(gaps.filter((event) => !log.includes(`came due while nothing served every-second-runLast: the newest (${event}) runs once`))).toEqual([])
      // Each "run started" line is a recorded tick's. A tick may have none: its run was recorded as
      // its keeper was stopped, or moved to the other runner on a busy machine (the cluster's
      // singleton), before the line was written; its run is recorded once all the same (above).
      expect(started.filter((event) => !events.includes(event))).toEqual([])
    } finally {
      await postgres.stop()
    }
  })

  it("sample lists the weekly example's next five ticks: Mondays at 9:00 in Berlin; --help shows it", async () => {
    const sampled = await runner(["sample", weekly])
    expect(sampled.code).toBe(0)
    expect(sampled.stderr).toContain("5 sample events of schedule/v1/cron")
    const ticks = JSON.parse(sampled.stdout) as Array<{ id: string; output: { scheduledAt: string; firedAt: string } }>
    expect(ticks).toHaveLength(5)
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    for (const tick of ticks) {
      expect(tick.id).toBe(tick.output.scheduledAt)
      expect(local.format(new Date(tick.id))).toBe("Mon 09:00")
    }
    expect(Date.parse(ticks[0]!.id)).toBeGreaterThan(Date.now())
    expect(Date.parse(ticks[0]!.id)).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600 * second)
    const help = await runner(["--help"])
    expect(help.stdout).toContain("$ x-runner serve examples/weekly-schedule.json --sandbox")
    expect(help.stdout).toContain("$ x-runner sample examples/weekly-schedule.json")
  })

  it("a cron or a time zone that does not parse is refused (exit 2, naming its place) before anything runs", async () => {
    const write = (name: string, parameters: object) => {
      const file = join(dir, `${name}.json`)
      writeFileSync(file, JSON.stringify({
        label: "Bad schedule",
        triggers: [{ label: "Tick", name: "tick", type: "schedule/v1/cron", parameters }],
        tasks: [{ label: "Wait", name: "pause", delay: "1 millis" }]
      }))
      return file
    }
    const dataDir = join(dir, "refused")
    const badCron = await runner(["serve", write("bad-cron", { cron: "61 * * * *" }), "--data-dir", dataDir])
    expect(badCron.code).toBe(2)
    expect(badCron.stderr).toContain("parameters.cron: is not a cron expression of five or six fields")
    const fourFields = await runner(["sample", write("four-fields", { cron: "* * * *" })])
    expect(fourFields.code).toBe(2)
    expect(fourFields.stderr).toContain("parameters.cron: is not a cron expression of five or six fields")
    const badZone = await runner(["serve", write("bad-zone", { cron: "0 9 * * 1", timezone: "Europe/Nowhere" }), "--data-dir", dataDir])
    expect(badZone.code).toBe(2)
    expect(badZone.stderr).toContain("parameters.timezone: is not an IANA time zone")
    const never = await runner(["sample", write("never", { cron: "0 0 30 2 *" })])
    expect(never.code).toBe(2)
    expect(never.stderr).toContain("parameters.cron: never comes due")
    const badMissed = await runner(["sample", write("bad-missed", { cron: "0 9 * * 1", missed: "all" })])
    expect(badMissed.code).toBe(2)
    expect(badMissed.stderr).toContain("parameters.missed")
    expect(badCron.stderr + badZone.stderr).not.toContain("●")
  })
})
