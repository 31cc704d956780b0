/**
 * Webhooks: create (after a HEAD check of the callback URL; a second one with the same callback
 * and model is refused with Trello's 400), get, update or reactivate, delete, and a token's list.
 */
import { booleanOf, HttpError, invalid, isId, lookup, notFound, required, type Route, textOf } from "../http.js"
import type { Webhook } from "../store.js"
import type { Context } from "./context.js"

export const routes = ({ memberOf, store }: Context): ReadonlyArray<Route> => {
  const { webhooks } = store
  // Each webhook's creator (the member of the token that made it): Trello keeps a webhook per token.
  const creators = new Map<string, string>()
  const mine = (webhook: Webhook) => (creators.get(webhook.id) ?? store.me.id) === store.current().id
  // Webhooks being created (their HEAD check in flight), so that a duplicate is refused meanwhile.
  const creating = new Set<string>()
  const duplicate = () => new HttpError(400, "A webhook with that callback, model, and token already exists")
  const modelOf = (given: string) => {
    if (!isId(given)) throw invalid("idModel")
    const idModel = given.toLowerCase()
    if (!store.boards.has(idModel) && !store.lists.has(idModel) && !store.cards.has(idModel) && !store.members.has(idModel) && !store.organizations.has(idModel)) throw notFound()
    return idModel
  }
  const checkCallback = async (callbackURL: string) => {
    let status: number
    try {
      status = (await fetch(callbackURL, { method: "HEAD", signal: AbortSignal.timeout(10_000) })).status
    } catch {
      throw new HttpError(400, `URL (${callbackURL}) did not return 200 status code, got no response`)
    }
    if (status !== 200) throw new HttpError(400, `URL (${callbackURL}) did not return 200 status code, got ${status}`)
  }

  return [
    {
      method: "POST",
      path: "/webhooks",
      handle: async ({ p }) => {
        const callbackURL = required(p, "callbackURL")
        const idModel = modelOf(required(p, "idModel"))
        const key = `${store.current().id} ${idModel} ${callbackURL}`
        if (creating.has(key) || [...webhooks.values()].some((w) => mine(w) && w.idModel === idModel && w.callbackURL === callbackURL)) throw duplicate()
        creating.add(key)
        try {
          await checkCallback(callbackURL)
        } finally {
          creating.delete(key)
        }
        const webhook: Webhook = {
          id: store.nextId(),
          idModel,
          callbackURL,
          description: p.get("description") ?? "",
          active: p.get("active") !== "false",
          consecutiveFailures: 0
        }
        webhooks.set(webhook.id, webhook)
        creators.set(webhook.id, store.current().id)
        return store.webhookJson(webhook)
      }
    },
    { method: "GET", path: "/webhooks/:id", handle: ({ path }) => store.webhookJson(lookup(webhooks, path["id"]!)) },
    {
      // Its description, active state, model or callback URL (checked with a HEAD, and refused
      // when the token already has that callback on that model).
      method: "PUT",
      path: "/webhooks/:id",
      handle: async ({ p, path }) => {
        const webhook = lookup(webhooks, path["id"]!)
        const active = booleanOf(p, "active")
        const description = textOf(p, "description")
        const given = p.get("idModel")
        const idModel = given === undefined ? webhook.idModel : modelOf(given)
        const callbackURL = p.get("callbackURL") ?? webhook.callbackURL
        if (idModel !== webhook.idModel || callbackURL !== webhook.callbackURL) {
          if ([...webhooks.values()].some((w) => w !== webhook && mine(w) && w.idModel === idModel && w.callbackURL === callbackURL)) throw duplicate()
          if (callbackURL !== webhook.callbackURL) await checkCallback(callbackURL)
        }
        webhook.idModel = idModel
        webhook.callbackURL = callbackURL
        if (description !== undefined) webhook.description = description
        // Activated again, it starts counting failures afresh.
        if (active === true) webhook.consecutiveFailures = 0
        if (active !== undefined) webhook.active = active
        return store.webhookJson(webhook)
      }
    },
    {
      method: "DELETE",
      path: "/webhooks/:id",
      handle: ({ path }) => {
        webhooks.delete(lookup(webhooks, path["id"]!).id)
        return { _value: null }
      }
    },
    {
      // The webhooks a token made: "me"'s, or another member's.
      method: "GET",
      path: "/tokens/:token/webhooks",
      handle: ({ path }) => {
        const member = memberOf(path["token"]!)
        if (member === undefined) throw new HttpError(401, "invalid token")
        return [...webhooks.values()].filter((w) => (creators.get(w.id) ?? store.me.id) === member.id).map(store.webhookJson)
      }
    }
  ]
}
