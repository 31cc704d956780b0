import { ComponentTest } from "@x/core/testing"
import { boardtool } from "../src/index.js"
import type * as Simulator from "../src/testing/simulator.js"

export const KEY = "0123456789abcdef0123456789abcdef"
export const TOKEN = "ATTA0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
export const SECRET = "trello-app-secret-0123456789"
export const AUTHORIZATION = `OAuth oauth_consumer_key="${KEY}", oauth_token="${TOKEN}"`
export const API = "https://api.trello.com"
export const connection = { key: KEY, token: TOKEN, secret: SECRET }

export const BOARD = "61a0f0f0f0f0f0f0f0f0f0b1"
export const LIST = "61a0f0f0f0f0f0f0f0f0f011"
export const CARD = "61a0f0f0f0f0f0f0f0f0f0c1"

/** boardtool's test kit on the test connection: its executor, steps, connection and `run`. */
export const kit = ComponentTest.make(boardtool, { connection })
export const { connectedTo, executor, run, step, withFetch } = kit

/** The connection to a running simulator: its key, token, webhook secret and address. */
export const simulatorConnection = (sim: Simulator.Simulator) => ({ key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl })

/** A card as Trello's API returns it: many more fields than the five we output. */
export const trelloCard = {
  id: CARD,
  badges: { attachments: 0, comments: 0, description: true, votes: 0 },
  checkItemStates: [],
  closed: false,
  dateLastActivity: "2026-11-21T10:00:00.000Z",
  desc: "Draft, review, publish.",
  descData: { emoji: {} },
  due: null,
  idBoard: BOARD,
  idList: LIST,
  idMembers: [],
  idShort: 7,
  labels: [],
  name: "Write the launch post",
  pos: 16384,
  shortLink: "AbCdEfGh",
  shortUrl: "https://trello.com/c/AbCdEfGh",
  url: "https://trello.com/c/AbCdEfGh/7-write-the-launch-post"
}
/** A board as Trello's API returns it (abridged). */
export const trelloBoard = {
  id: BOARD,
  name: "Launch",
  desc: "Q4 launch",
  descData: null,
  closed: false,
  idOrganization: "61a0f0f0f0f0f0f0f0f0f000",
  pinned: false,
  url: "https://trello.com/b/AbCdEfGh/launch",
  shortUrl: "https://trello.com/b/AbCdEfGh",
  prefs: { permissionLevel: "private", voting: "disabled", comments: "members", background: "blue" },
  labelNames: { green: "", yellow: "", orange: "", red: "", purple: "", blue: "" }
}
export const card = { id: CARD, desc: trelloCard.desc, idBoard: BOARD, idList: LIST, name: trelloCard.name }
