/**
 * Trello notifications and dropdown options through the runner, from the built bundle, on the
 * sandbox: the new actions run by `x-runner run --sandbox`, and the `newNotification` polling
 * trigger served by `x-runner serve --sandbox`, where Alice's mention of "me" (made in the
 * sandbox's simulator with her own token) starts one run.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner, type RunDocument, runsOf, served } from "./bin.js"

const seeded = {
  roadmap: "5eed00000000000000000002",
  launchPost: "5eed0000000000000000000a",
  priority: "5eed00000000000000000a11",
  estimate: "5eed00000000000000000a12",
  mentioned: "5eed00000000000000000b02",
  added: "5eed00000000000000000b03"
}
const task = (name: string, type: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `boardtool/v1/${type}`, parameters })
const write = (dir: string, file: string, workflow: unknown) => {
  const path = join(dir, file)
  writeFileSync(path, JSON.stringify(workflow))
  return path
}

describe("x-runner and Trello's notifications and dropdown options, on the sandbox", () => {
  it("run: lists my unread mentions and assignments, marks one read then all; lists and adds a Priority option; a number field is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-notifications-"))
    const workflow = write(dir, "notifications.json", {
      label: "Notifications and options",
      tasks: [
        task("unread", "listNotifications", { types: ["mentionedOnCard", "addedToCard"], onlyUnread: true }),
        task("read", "markNotificationRead", { idNotification: "${unread.notifications.1.id}" }),
        task("stillUnread", "listNotifications", { onlyUnread: true }),
        task("allRead", "markAllNotificationsRead", {}),
        task("noneUnread", "listNotifications", { onlyUnread: true }),
        task("critical", "addCustomFieldOption", { idBoard: seeded.roadmap, idCustomField: seeded.priority, text: "Critical", color: "purple", pos: "top" }),
        task("options", "listCustomFieldOptions", { idBoard: seeded.roadmap, idCustomField: seeded.priority })
      ]
    })
    const { code, stderr, stdout } = await runner(["run", workflow, "--sandbox", "--output", "json"])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    const output = (name: string) => document.steps.find((step) => step.name === name)!.output
    expect(document.steps.map((step) => [step.name, step.status])).toEqual(
      ["unread", "read", "stillUnread", "allRead", "noneUnread", "critical", "options"].map((name) => [name, "succeeded"])
    )
    expect(output("unread").notifications.map((n: { id: string }) => n.id)).toEqual([seeded.added, seeded.mentioned])
    expect(output("read")).toMatchObject({ id: seeded.mentioned, type: "mentionedOnCard", unread: false, memberCreator: { username: "alice" } })
    expect(output("stillUnread").notifications.map((n: { id: string }) => n.id)).toEqual([seeded.added])
    expect(output("allRead")).toBeNull()
    expect(output("noneUnread")).toEqual({ notifications: [] })
    expect(output("critical")).toMatchObject({ value: { text: "Critical" }, color: "purple" })
    expect(output("options").options.map((o: { value: { text: string } }) => o.value.text)).toEqual(["Critical", "High", "Medium", "Low"])

    // Options only for a list field: refused with the field named, nothing written (exit 1).
    const refused = write(dir, "refused.json", {
      label: "An option on a number field",
      tasks: [task("big", "addCustomFieldOption", { idCustomField: seeded.estimate, text: "Big" })]
    })
    const failed = await runner(["run", refused, "--sandbox", "--output", "json"])
    expect(failed.code).toBe(1)
    expect((JSON.parse(failed.stdout) as RunDocument).steps).toEqual([expect.objectContaining({
      name: "big",
      status: "failed",
      error: { tag: "InvalidInput", message: "\"Estimate (days)\" is a number field: only a list (dropdown) field has options" }
    })])
  })

  it("serve: the baseline fires nothing; Alice's mention of me runs the workflow once; my own comment, nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-mentioned-"))
    const workflow = write(dir, "mentioned.json", {
      label: "When I am mentioned or assigned",
      triggers: [{ label: "Mentioned", name: "mentioned", type: "boardtool/v1/newNotification", parameters: {} }],
      tasks: [task("read", "markNotificationRead", { idNotification: "${trigger.id}" })]
    })
    const serving = served(["serve", workflow, "--sandbox", "--poll-interval", "200 millis", "--data-dir", join(dir, "data")])
    try {
      await serving.waitFor("● polling boardtool/v1/newNotification every 200ms")
      await serving.waitFor("○ baseline set")
      const trello = /Trello simulator at (\S+) /.exec(serving.log())![1]!
      const comment = (token: string, text: string) =>
        fetch(`${trello}/cards/${seeded.launchPost}/actions/comments?text=${encodeURIComponent(text)}`, {
          method: "POST",
          headers: { authorization: `OAuth oauth_consumer_key="sandbox-trello-key", oauth_token="${token}"` }
        })
      // Mine: Trello notifies no one of their own comment.
      expect((await comment("sandbox-trello-token", "@simulated note to self")).status).toBe(200)
      await serving.waitFor("· polled: 0 new events", 2)
      // Alice's, with her own token.
      expect((await comment("sandbox-trello-token-alice", "@simulated the draft is ready")).status).toBe(200)
      await serving.waitFor(/■ event [0-9a-f]{24} succeeded/)
      await serving.waitFor("· polled: 0 new events", 4)
      expect(serving.log()).toContain("✔ read succeeded")
      expect(serving.log().split("▶ event ").length - 1).toBe(1)
      const runs = await runsOf({ dataDir: join(dir, "data") })
      expect(runs.map((run) => [run.workflow, run.status])).toEqual([["mentioned", "succeeded"]])
      expect(runs[0]!.event).toMatch(/^[0-9a-f]{24}$/)
    } finally {
      serving.child.kill("SIGTERM")
      await serving.exited
    }
  })
})
