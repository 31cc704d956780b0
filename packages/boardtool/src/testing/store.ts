/**
 * The simulator's state: Trello's records in memory, their JSON as Trello answers it, ids
 * minted like Trello's, and every change recorded as a Trello action on its board (what
 * `GET /boards/{id}/actions` lists and webhooks deliver). Routes change the state only through
 * it, so that each change is recorded once.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { createHash, randomBytes } from "node:crypto"
import type * as Attachments from "./attachments.js"

export interface Board { id: string; name: string; desc: string; closed: boolean; shortLink: string; idOrganization: string; permissionLevel: string }
export interface List { id: string; name: string; idBoard: string; closed: boolean; pos: number }
export interface Card {
  id: string
  name: string
  desc: string
  idBoard: string
  idList: string
  idShort: number
  pos: number
  shortLink: string
  closed: boolean
  dateLastActivity: string
  /** ISO date-times, or null. */
  due: string | null
  start: string | null
  dueComplete: boolean
  idMembers: Array<string>
  idLabels: Array<string>
  idMembersVoted: Array<string>
  /** Set by `PUT /cards/{id}` with `cover`; absent is no cover. */
  cover?: CardCover
}
export interface CardCover { color: string | null; idAttachment: string | null; size: "normal" | "full"; brightness: "dark" | "light" }
export interface Label { id: string; idBoard: string; name: string; color: string | null }
export interface Member { id: string; username: string; fullName: string; email: string; /** False for someone invited by email who has no account yet. */ confirmed?: boolean }
/** A board's member and their role. */
export interface Membership { id: string; idBoard: string; idMember: string; memberType: "admin" | "normal" | "observer" }
/** An action: ids are ObjectIds (creation second first), so later actions have greater ids. */
export interface Action {
  id: string
  idBoard: string
  idMemberCreator: string
  type: string
  date: string
  data: Record<string, unknown>
}
// --- comments, checklists, labels ---
export interface Checklist { id: string; idCard: string; idBoard: string; name: string; pos: number }
export interface CheckItem {
  id: string
  idChecklist: string
  name: string
  state: "complete" | "incomplete"
  pos: number
  /** ISO date-time, or null. */
  due: string | null
  idMember: string | null
}
/** A reaction to a comment (a commentCard action). */
export interface Reaction { id: string; idAction: string; idMember: string; emoji: Emoji }
export interface Emoji { unified: string; native: string; name: string; shortName: string }
/** The labels Trello gives every new board: six colours, no names. */
export const defaultLabelColors = ["green", "yellow", "orange", "red", "purple", "blue"] as const

// --- lists, boards, workspaces ---
/** A workspace (Trello's organization). */
export interface Organization { id: string; name: string; displayName: string; desc: string }
/** A workspace's well-known id: the member's own is 1 (seeded or not). */
export const workspaceId = (n: number) => seedId(0xa000 + n)
/** What `updateList` and `updateBoard` may change. */
export interface ListChanges { name?: string; pos?: number; closed?: boolean; idBoard?: string }
export interface BoardChanges { name?: string; desc?: string; closed?: boolean; idOrganization?: string; permissionLevel?: string }


// --- members, custom fields (types) ---
/** A board's custom field; a list field has options (its cards' values are their ids). */
export interface CustomField {
  id: string
  idBoard: string
  name: string
  type: "text" | "number" | "date" | "checkbox" | "list"
  pos: number
  cardFront: boolean
  options: Array<{ id: string; text: string; color: string; pos: number }>
}
/** A card's value of a custom field: `value` keyed by the field's kind, as text, or a list option's id. */
export interface CustomFieldItem { id: string; idCard: string; idCustomField: string; value: Record<string, string> | null; idValue: string | null }
/** A member's notification of another member's action (Trello notifies no one of their own). */
export interface Notification {
  id: string
  /** Whose it is. */
  idMember: string
  type: string
  date: string
  unread: boolean
  dateRead: string | null
  idMemberCreator: string
  idAction: string | null
  data: Record<string, unknown>
}
export interface Webhook { id: string; idModel: string; callbackURL: string; description: string; active: boolean; consecutiveFailures: number }

// As Trello's (MongoDB) ids: the creation time in seconds, 5 random bytes, a counter, so that
// a later id sorts after an earlier one.
let counter = randomBytes(3).readUIntBE(0, 3)
export const newId = () =>
  Math.floor(Date.now() / 1000).toString(16).padStart(8, "0") + randomBytes(5).toString("hex") +
  ((counter = (counter + 1) % 0x1000000)).toString(16).padStart(6, "0")
export const seedId = (n: number) => `5eed${n.toString(16).padStart(20, "0")}`
export const shortLink = () => randomBytes(6).toString("base64url").slice(0, 8)
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-")

/**
 * What an update does to a record: each given field that differs is set, its previous value
 * kept in `old` (what Trello's update actions carry).
 */
export const changer = <R extends object>(record: R, old: Record<string, unknown>) =>
<K extends keyof R & string>(key: K, value: R[K] | undefined) => {
  if (value === undefined || value === record[key]) return
  old[key] = record[key]
  record[key] = value
}

export type Store = ReturnType<typeof make>

/** A store; `onAction` is told of every action recorded after seeding (to deliver it). */
export const make = (options: { readonly seeded: boolean; readonly onAction: (action: Action) => void }) => {
  // While seeding, ids are the well-known ones of `seed`; after, random.
  let seeding = options.seeded ? 1 : 0
  const nextId = () => (seeding > 0 ? seedId(seeding++) : newId())
  const me: Member = { id: nextId(), username: "simulated", fullName: "Simulated Member", email: "simulated@example.com" }
  const organization = workspaceId(1)
  const members = new Map<string, Member>([[me.id, me]])
  const boards = new Map<string, Board>()
  const memberships = new Map<string, Membership>()
  const lists = new Map<string, List>()
  const cards = new Map<string, Card>()
  const labels = new Map<string, Label>()
  const webhooks = new Map<string, Webhook>()
  const attachments = new Map<string, Attachments.Attachment>()
  const actions: Array<Action> = []
  // --- comments, checklists, labels ---
  const checklists = new Map<string, Checklist>()
  const checkItems = new Map<string, CheckItem>()
  const reactions = new Map<string, Reaction>()

  // --- records as Trello returns them ----------------------------------------------------

  const boardJson = (b: Board) => ({
    id: b.id,
    name: b.name,
    desc: b.desc,
    descData: "",
    closed: b.closed,
    idOrganization: b.idOrganization,
    pinned: false,
    url: `https://trello.com/b/${b.shortLink}/${slug(b.name)}`,
    shortUrl: `https://trello.com/b/${b.shortLink}`,
    shortLink: b.shortLink,
    prefs: { permissionLevel: b.permissionLevel, voting: "disabled", comments: "members", invitations: "members", selfJoin: true, cardCovers: true },
    labelNames: { green: "", yellow: "", orange: "", red: "", purple: "", blue: "" }
  })
  const listJson = (l: List) => ({ id: l.id, name: l.name, closed: l.closed, idBoard: l.idBoard, pos: l.pos, subscribed: false, softLimit: "" })
  const labelJson = (l: Label) => ({ id: l.id, idBoard: l.idBoard, name: l.name, color: l.color })
  const memberJson = (m: Member) => ({
    id: m.id,
    username: m.username,
    fullName: m.fullName,
    initials: m.fullName.split(" ").map((word) => word[0] ?? "").join("").toUpperCase(),
    avatarHash: null,
    avatarUrl: null,
    confirmed: m.confirmed !== false,
    // Someone invited by email without an account is a "ghost" until they sign up.
    memberType: m.confirmed === false ? "ghost" : "normal",
    url: `https://trello.com/${m.username}`
  })
  const cardJson = (c: Card) => ({
    id: c.id,
    badges: {
      attachments: [...attachments.values()].filter((a) => a.idCard === c.id).length,
      checkItems: itemsOfCard(c.id).length,
      checkItemsChecked: itemsOfCard(c.id).filter((i) => i.state === "complete").length,
      comments: actions.filter((a) => a.type === "commentCard" && (a.data["card"] as { id?: string } | undefined)?.id === c.id).length,
      description: c.desc !== "",
      due: c.due,
      dueComplete: c.dueComplete,
      start: c.start,
      subscribed: false,
      viewingMemberVoted: c.idMembersVoted.includes(me.id),
      votes: c.idMembersVoted.length
    },
    checkItemStates: itemsOfCard(c.id).filter((i) => i.state === "complete").map((i) => ({ idCheckItem: i.id, state: i.state })),
    closed: c.closed,
    dueComplete: c.dueComplete,
    dateLastActivity: c.dateLastActivity,
    desc: c.desc,
    descData: { emoji: {} },
    due: c.due,
    dueReminder: null,
    email: null,
    idBoard: c.idBoard,
    idChecklists: checklistsOfCard(c.id).map((l) => l.id),
    idList: c.idList,
    idMembers: [...c.idMembers],
    idMembersVoted: [...c.idMembersVoted],
    idShort: c.idShort,
    idAttachmentCover: c.cover?.idAttachment ?? null,
    cover: { idAttachment: null, color: null, idUploadedBackground: null, size: "normal", brightness: "dark", idPlugin: null, ...c.cover },
    labels: c.idLabels.flatMap((id) => {
      const label = labels.get(id)
      return label === undefined ? [] : [labelJson(label)]
    }),
    idLabels: [...c.idLabels],
    manualCoverAttachment: false,
    name: c.name,
    pos: c.pos,
    shortLink: c.shortLink,
    shortUrl: `https://trello.com/c/${c.shortLink}`,
    start: c.start,
    subscribed: false,
    url: `https://trello.com/c/${c.shortLink}/${c.idShort}-${slug(c.name)}`
  })
  const webhookJson = (w: Webhook) => ({ ...w, firstConsecutiveFailDate: null })

  // The references an action's data carries, as Trello writes them.
  const boardRef = (b: Board) => ({ id: b.id, name: b.name, shortLink: b.shortLink })
  const listRef = (l: List) => ({ id: l.id, name: l.name })
  const cardRef = (c: Card) => ({ id: c.id, name: c.name, idShort: c.idShort, shortLink: c.shortLink })

  // --- actions ----------------------------------------------------------------------------

  // ObjectIds as MongoDB makes them: the second, a value fixed per process, a counter. Ordered
  // by time, so `before=<id>` and `since=<id>` compare them as strings, as Trello does.
  const processPart = randomBytes(5).toString("hex")
  let actionCounter = 0
  const actionId = (date: Date) =>
    Math.floor(date.getTime() / 1000).toString(16).padStart(8, "0") + processPart + (actionCounter++ % 0x1000000).toString(16).padStart(6, "0")
  // While seeding, actions are dated from the seed's clock; after, now.
  let seedClock = Date.parse("2025-12-31T09:00:00.000Z")
  const actionDate = () => (seeding > 0 ? new Date(seedClock += 60_000) : new Date())

  // Who a request acts as: the token's member ("me"), or another member by their own token (a
  // test's way to mention "me"). Kept across a handler's awaits, apart for each request.
  const acting = new AsyncLocalStorage<Member>()
  /** The member the current request acts as. */
  const current = (): Member => acting.getStore() ?? me
  const actAs = <A>(member: Member, f: () => A): A => acting.run(member, f)

  /** Records an action on a board, by the acting member (and, after seeding, tells `onAction`, which delivers it). */
  const record = (idBoard: string, type: string, data: Record<string, unknown>, date = actionDate()) => {
    const action: Action = { id: actionId(date), idBoard, idMemberCreator: current().id, type, date: date.toISOString(), data }
    // Kept in id order (a clock set back would otherwise break `before`).
    let at = actions.length
    while (at > 0 && actions[at - 1]!.id > action.id) at--
    actions.splice(at, 0, action)
    notify(action)
    if (seeding === 0) options.onAction(action)
    return action
  }
  const avatarHash = randomBytes(16).toString("hex")
  const actionJson = (a: Action) => ({
    id: a.id,
    idMemberCreator: a.idMemberCreator,
    data: a.data,
    appCreator: null,
    type: a.type,
    date: a.date,
    // Only comments take reactions, and only theirs carry the limits of them.
    limits: a.type === "commentCard"
      ? { reactions: { perAction: { status: "ok", disableAt: 900, warnAt: 720 }, uniquePerAction: { status: "ok", disableAt: 17, warnAt: 14 } } }
      : {},
    memberCreator: memberCreatorJson(members.get(a.idMemberCreator) ?? me)
  })
  const initialsOf = (m: Member) => m.fullName.split(" ").map((word) => word[0] ?? "").join("").toUpperCase()
  const memberCreatorJson = (m: Member) => ({
    id: m.id, activityBlocked: false, avatarHash, avatarUrl: `https://trello-members.s3.amazonaws.com/${m.id}/${avatarHash}`,
    fullName: m.fullName, idMemberReferrer: null, initials: initialsOf(m), nonPublic: {}, nonPublicAvailable: true, username: m.username
  })

  // --- notifications ----------------------------------------------------------------------

  const notifications = new Map<string, Notification>()
  const cardOf = (action: Action) => cards.get((action.data["card"] as { id?: string } | undefined)?.id ?? "")
  /**
   * Who is told of an action, and how: a member @mentioned in a comment (mentionedOnCard), the
   * card's other members (commentCard, changeCard), a member added to or removed from a card or
   * board. Never the member who acted.
   */
  const recipientsOf = (action: Action): ReadonlyArray<readonly [string, string]> => {
    const idMember = action.data["idMember"] as string | undefined
    const cardMembers = cardOf(action)?.idMembers ?? []
    switch (action.type) {
      case "commentCard": {
        const usernames = [...String(action.data["text"] ?? "").matchAll(/@([a-z0-9_]+)/gi)].map((m) => m[1]!.toLowerCase())
        const mentioned = [...members.values()].filter((m) => usernames.includes(m.username)).map((m) => m.id)
        return [
          ...mentioned.map((id) => [id, "mentionedOnCard"] as const),
          ...cardMembers.filter((id) => !mentioned.includes(id)).map((id) => [id, "commentCard"] as const)
        ]
      }
      case "updateCard":
        return cardMembers.map((id) => [id, "changeCard"] as const)
      case "addMemberToCard":
        return idMember === undefined ? [] : [[idMember, "addedToCard"]]
      case "removeMemberFromCard":
        return idMember === undefined ? [] : [[idMember, "removedFromCard"]]
      case "addMemberToBoard":
        return idMember === undefined ? [] : [[idMember, "addedToBoard"]]
      case "removeMemberFromBoard":
        return idMember === undefined ? [] : [[idMember, "removedFromBoard"]]
      default:
        return []
    }
  }
  const notify = (action: Action) => {
    for (const [idMember, type] of recipientsOf(action)) {
      if (idMember === action.idMemberCreator || !members.has(idMember)) continue
      addNotification({ idMember, type, date: action.date, idMemberCreator: action.idMemberCreator, idAction: action.id, data: action.data })
    }
  }
  /** A notification; its id is an ObjectId of its date, so later ones sort after earlier ones, as Trello's. */
  const addNotification = (fields: Omit<Notification, "id" | "unread" | "dateRead"> & { readonly id?: string; readonly unread?: boolean }) => {
    const notification: Notification = { unread: true, dateRead: null, ...fields, id: fields.id ?? actionId(new Date(fields.date)) }
    notifications.set(notification.id, notification)
    return notification
  }
  const notificationJson = (n: Notification, withCreator = true) => ({
    id: n.id,
    unread: n.unread,
    type: n.type,
    date: n.date,
    dateRead: n.dateRead,
    data: n.data,
    appCreator: null,
    idMemberCreator: n.idMemberCreator,
    idAction: n.idAction,
    reactions: [],
    ...(withCreator ? { memberCreator: memberCreatorJson(members.get(n.idMemberCreator) ?? me) } : {})
  })
  /** The ids of the models an action is about (its board, lists and card): the webhooks watching any of them get it. */
  const modelsOf = (action: Action): ReadonlyArray<string> => {
    const ids = new Set<string>([action.idBoard])
    for (const key of ["list", "listBefore", "listAfter", "card", "member", "organization"]) {
      const ref = action.data[key] as { id?: unknown } | undefined
      if (typeof ref?.id === "string") ids.add(ref.id)
    }
    return [...ids]
  }
  /** The JSON of a watched model, for a delivery's `model`. */
  const modelJson = (id: string): unknown => {
    const board = boards.get(id)
    if (board !== undefined) return boardJson(board)
    const list = lists.get(id)
    if (list !== undefined) return listJson(list)
    const card = cards.get(id)
    if (card !== undefined) return cardJson(card)
    const member = members.get(id)
    if (member !== undefined) return memberJson(member)
    const workspace = organizations.get(id)
    return workspace === undefined ? { id } : organizationJson(workspace)
  }

  // --- state changes ----------------------------------------------------------------------

  const addBoard = (
    name: string,
    desc = "",
    defaultLists = true,
    permissionLevel = "org",
    more: { readonly idOrganization?: string; readonly defaultLabels?: boolean } = {}
  ) => {
    const board: Board = { id: nextId(), name, desc, closed: false, shortLink: shortLink(), idOrganization: more.idOrganization ?? organization, permissionLevel }
    boards.set(board.id, board)
    // Trello's six, coloured and unnamed; not recorded as actions (Trello records none for them).
    if (more.defaultLabels === true) {
      for (const color of ["green", "yellow", "orange", "red", "purple", "blue"]) {
        const label: Label = { id: nextId(), idBoard: board.id, name: "", color }
        labels.set(label.id, label)
      }
    }
    const membership: Membership = { id: newId(), idBoard: board.id, idMember: me.id, memberType: "admin" }
    memberships.set(membership.id, membership)
    // A board created in a workspace: Trello's createBoard names it (a webhook on the workspace gets it).
    const workspace = organizations.get(board.idOrganization)
    record(board.id, "createBoard", { board: boardRef(board), ...(workspace === undefined ? {} : { organization: organizationRef(workspace) }) })
    if (defaultLists) ["To Do", "Doing", "Done"].forEach((n, i) => addList(board.id, n, (i + 1) * 16384))
    return board
  }
  const addList = (idBoard: string, name: string, pos: number) => {
    const list: List = { id: nextId(), name, idBoard, closed: false, pos }
    lists.set(list.id, list)
    record(idBoard, "createList", { list: listRef(list), board: boardRef(boards.get(idBoard)!) })
    return list
  }
  // Counted as cards are added (a card's idShort is its number on its board), so that creating
  // one stays O(1) however many a load test has made.
  const cardsOnBoard = new Map<string, number>()
  const cardsInList = new Map<string, number>()
  const addCard = (
    idList: string,
    fields: { readonly name: string; readonly desc?: string; readonly due?: string | null; readonly start?: string | null; readonly dueComplete?: boolean; readonly pos?: number },
    // A copy is recorded as Trello records it: copyCard, with the card it was copied from.
    source?: Card
  ) => {
    const list = lists.get(idList)!
    const onBoard = (cardsOnBoard.get(list.idBoard) ?? 0) + 1
    const inList = (cardsInList.get(idList) ?? 0) + 1
    cardsOnBoard.set(list.idBoard, onBoard)
    cardsInList.set(idList, inList)
    const card: Card = {
      id: nextId(),
      name: fields.name,
      desc: fields.desc ?? "",
      idBoard: list.idBoard,
      idList,
      idShort: onBoard,
      pos: fields.pos ?? inList * 16384,
      shortLink: shortLink(),
      closed: false,
      dateLastActivity: new Date().toISOString(),
      due: fields.due ?? null,
      start: fields.start ?? null,
      dueComplete: fields.dueComplete ?? false,
      idMembers: [],
      idLabels: [],
      idMembersVoted: []
    }
    cards.set(card.id, card)
    const where = { list: listRef(list), board: boardRef(boards.get(list.idBoard)!) }
    if (source === undefined) record(card.idBoard, "createCard", { card: cardRef(card), ...where })
    else record(card.idBoard, "copyCard", { card: cardRef(card), cardSource: cardRef(source), ...where })
    return card
  }

  // --- comments, checklists, labels -------------------------------------------------------

  const checklistsOfCard = (idCard: string) => [...checklists.values()].filter((l) => l.idCard === idCard).sort((a, b) => a.pos - b.pos)
  const itemsOf = (idChecklist: string) => [...checkItems.values()].filter((i) => i.idChecklist === idChecklist).sort((a, b) => a.pos - b.pos)
  const itemsOfCard = (idCard: string) => checklistsOfCard(idCard).flatMap((l) => itemsOf(l.id))
  const checkItemJson = (i: CheckItem) => ({
    id: i.id, name: i.name, nameData: { emoji: {} }, pos: i.pos, state: i.state, due: i.due, dueReminder: null, idMember: i.idMember,
    idChecklist: i.idChecklist
  })
  const checklistJson = (l: Checklist) => ({
    id: l.id, name: l.name, idBoard: l.idBoard, idCard: l.idCard, pos: l.pos,
    checkItems: itemsOf(l.id).map(checkItemJson),
    limits: { checkItems: { perChecklist: { status: "ok", disableAt: 200, warnAt: 160 } } }
  })
  const reactionJson = (r: Reaction) => ({
    id: r.id, idMember: r.idMember, idModel: r.idAction, idEmoji: r.emoji.unified,
    member: memberJson(members.get(r.idMember)!),
    emoji: { ...r.emoji, skinVariation: null }
  })
  const checklistRef = (l: Checklist) => ({ id: l.id, name: l.name })
  const checkItemRef = (i: CheckItem) => ({ id: i.id, name: i.name, state: i.state })
  const labelRef = (l: Label) => ({ id: l.id, name: l.name, color: l.color })
  /** What every action on a card carries: the card, its list and board. */
  const onCard = (c: Card) => ({ card: cardRef(c), list: listRef(lists.get(c.idList)!), board: boardRef(boards.get(c.idBoard)!) })
  /** A label on a board; `recorded` as Trello records one a member creates (not a new board's defaults). */
  const addLabel = (idBoard: string, name: string, color: string | null, options: { id?: string | undefined; recorded?: boolean } = {}) => {
    const label: Label = { id: options.id ?? nextId(), idBoard, name, color }
    labels.set(label.id, label)
    if (options.recorded !== false) record(idBoard, "createLabel", { label: labelRef(label), board: boardRef(boards.get(idBoard)!) })
    return label
  }
  /** Trello's six default labels on a board (the ids given, or new ones). */
  const addDefaultLabels = (idBoard: string, ids: ReadonlyArray<string> = []) =>
    defaultLabelColors.map((color, i) => addLabel(idBoard, "", color, { id: ids[i], recorded: false }))

  // --- lists, boards, workspaces ---
  const organizations = new Map<string, Organization>([
    [organization, { id: organization, name: "simulatedworkspace", displayName: "Simulated Workspace", desc: "" }]
  ])
  const organizationJson = (o: Organization) => ({
    id: o.id,
    name: o.name,
    displayName: o.displayName,
    desc: o.desc,
    descData: null,
    url: `https://trello.com/w/${o.name}`,
    website: null,
    logoHash: null,
    products: [],
    powerUps: [],
    idBoards: [...boards.values()].filter((b) => b.idOrganization === o.id).map((b) => b.id)
  })
  const organizationRef = (o: Organization) => ({ id: o.id, name: o.displayName })
  const addOrganization = (id: string, name: string, displayName: string, desc = "") => {
    const o: Organization = { id, name, displayName, desc }
    organizations.set(id, o)
    return o
  }
  const listsOf = (idBoard: string) => [...lists.values()].filter((l) => l.idBoard === idBoard)

  /**
   * Changes a list, recording what Trello records: an updateList per field with the old value in
   * `old`, and for another board a moveListFromBoard on the old board and a moveListToBoard on
   * the new one (its cards go with it).
   */
  const updateList = (list: List, changes: ListChanges) => {
    const board = () => boardRef(boards.get(list.idBoard)!)
    if (changes.idBoard !== undefined && changes.idBoard !== list.idBoard) {
      const from = boards.get(list.idBoard)!
      const to = boards.get(changes.idBoard)!
      list.idBoard = to.id
      if (changes.pos !== undefined) list.pos = changes.pos
      for (const card of cards.values()) if (card.idList === list.id) card.idBoard = to.id
      record(from.id, "moveListFromBoard", { list: listRef(list), board: boardRef(from), boardTarget: { id: to.id } })
      record(to.id, "moveListToBoard", { list: listRef(list), board: boardRef(to), boardSource: { id: from.id } })
    } else if (changes.pos !== undefined && changes.pos !== list.pos) {
      const old = list.pos
      list.pos = changes.pos
      record(list.idBoard, "updateList", { list: { ...listRef(list), pos: list.pos }, old: { pos: old }, board: board() })
    }
    if (changes.name !== undefined && changes.name !== list.name) {
      const old = list.name
      list.name = changes.name
      record(list.idBoard, "updateList", { list: listRef(list), old: { name: old }, board: board() })
    }
    if (changes.closed !== undefined && changes.closed !== list.closed) {
      list.closed = changes.closed
      record(list.idBoard, "updateList", { list: { ...listRef(list), closed: list.closed }, old: { closed: !list.closed }, board: board() })
    }
    return list
  }

  /**
   * Moves a list's open cards to the bottom of another list, in their order: on the same board
   * an updateCard each (with listBefore/listAfter and the old idList), to another board a
   * moveCardFromBoard and a moveCardToBoard each, as Trello records them.
   */
  const moveAllCards = (from: List, to: List) => {
    const moving = [...cards.values()].filter((c) => c.idList === from.id && !c.closed).sort((a, b) => a.pos - b.pos)
    let bottom = Math.max(0, ...[...cards.values()].filter((c) => c.idList === to.id).map((c) => c.pos))
    const [boardFrom, boardTo] = [boards.get(from.idBoard)!, boards.get(to.idBoard)!]
    for (const card of moving) {
      card.idList = to.id
      card.pos = bottom += 16384
      card.dateLastActivity = new Date().toISOString()
      if (boardFrom.id === boardTo.id) {
        record(boardTo.id, "updateCard", {
          card: { ...cardRef(card), idList: to.id },
          old: { idList: from.id },
          listBefore: listRef(from),
          listAfter: listRef(to),
          board: boardRef(boardTo)
        })
      } else {
        card.idBoard = boardTo.id
        record(boardFrom.id, "moveCardFromBoard", { card: cardRef(card), board: boardRef(boardFrom), boardTarget: { id: boardTo.id }, list: listRef(from) })
        record(boardTo.id, "moveCardToBoard", { card: cardRef(card), board: boardRef(boardTo), boardSource: { id: boardFrom.id }, list: listRef(to) })
      }
    }
    return moving
  }

  /** Changes a board: an updateBoard per field, with the old value in `old` (prefs nested, as Trello nests them). */
  const updateBoard = (board: Board, changes: BoardChanges) => {
    const updated = (field: Record<string, unknown>, old: Record<string, unknown>) =>
      record(board.id, "updateBoard", { board: { ...boardRef(board), ...field }, old })
    if (changes.name !== undefined && changes.name !== board.name) {
      const old = board.name
      board.name = changes.name
      updated({}, { name: old })
    }
    if (changes.desc !== undefined && changes.desc !== board.desc) {
      const old = board.desc
      board.desc = changes.desc
      updated({ desc: board.desc }, { desc: old })
    }
    if (changes.idOrganization !== undefined && changes.idOrganization !== board.idOrganization) {
      const old = board.idOrganization
      board.idOrganization = changes.idOrganization
      updated({ idOrganization: board.idOrganization }, { idOrganization: old })
      // Added to a workspace: what a webhook on the workspace gets.
      const workspace = organizations.get(board.idOrganization)
      if (workspace !== undefined) record(board.id, "addToOrganizationBoard", { board: boardRef(board), organization: organizationRef(workspace) })
    }
    if (changes.permissionLevel !== undefined && changes.permissionLevel !== board.permissionLevel) {
      const old = board.permissionLevel
      board.permissionLevel = changes.permissionLevel
      updated({ prefs: { permissionLevel: board.permissionLevel } }, { prefs: { permissionLevel: old } })
    }
    if (changes.closed !== undefined && changes.closed !== board.closed) {
      board.closed = changes.closed
      updated({ closed: board.closed }, { closed: !board.closed })
    }
    return board
  }

  /** Deletes a board and all it holds; its actions and webhooks go with it (Trello delivers nothing). */
  const deleteBoard = (board: Board) => {
    const listIds = new Set(listsOf(board.id).map((l) => l.id))
    const cardIds = new Set([...cards.values()].filter((c) => c.idBoard === board.id).map((c) => c.id))
    for (const id of cardIds) cards.delete(id)
    for (const id of listIds) lists.delete(id)
    for (const [id, a] of attachments) if (cardIds.has(a.idCard)) attachments.delete(id)
    for (const [id, l] of labels) if (l.idBoard === board.id) labels.delete(id)
    for (const [id, m] of memberships) if (m.idBoard === board.id) memberships.delete(id)
    for (const [id, w] of webhooks) if (w.idModel === board.id || listIds.has(w.idModel) || cardIds.has(w.idModel)) webhooks.delete(id)
    for (let i = actions.length - 1; i >= 0; i--) if (actions[i]!.idBoard === board.id) actions.splice(i, 1)
    boards.delete(board.id)
  }

  /** Copies a board's open lists and labels to a new board, and its open cards with `withCards`. */
  const copyBoardContent = (source: Board, target: Board, withCards: boolean) => {
    for (const label of [...labels.values()].filter((l) => l.idBoard === source.id)) {
      const copy: Label = { id: nextId(), idBoard: target.id, name: label.name, color: label.color }
      labels.set(copy.id, copy)
    }
    for (const list of listsOf(source.id).filter((l) => !l.closed).sort((a, b) => a.pos - b.pos)) {
      const copy = addList(target.id, list.name, list.pos)
      if (!withCards) continue
      for (const card of [...cards.values()].filter((c) => c.idList === list.id && !c.closed).sort((a, b) => a.pos - b.pos)) {
        addCard(copy.id, { name: card.name, desc: card.desc, due: card.due, start: card.start, dueComplete: card.dueComplete, pos: card.pos })
      }
    }
  }

  // --- members, custom fields -------------------------------------------------------------

  const customFields = new Map<string, CustomField>()
  /** By `${idCard}/${idCustomField}`. */
  const customFieldItems = new Map<string, CustomFieldItem>()
  const memberRef = (m: Member) => ({ id: m.id, name: m.fullName })
  const addMember = (fields: Omit<Member, "id"> & { readonly id?: string }) => {
    const member: Member = { ...fields, id: fields.id ?? newId() }
    members.set(member.id, member)
    return member
  }
  const membershipOf = (idBoard: string, idMember: string) =>
    [...memberships.values()].find((m) => m.idBoard === idBoard && m.idMember === idMember)
  const boardMembers = (idBoard: string) =>
    [...memberships.values()].filter((m) => m.idBoard === idBoard).flatMap((m) => {
      const member = members.get(m.idMember)
      return member === undefined ? [] : [member]
    })
  /** A board's members and memberships, as Trello answers a change of them. */
  const boardMembersJson = (board: Board) => ({
    id: board.id,
    members: boardMembers(board.id).map((m) => ({ id: m.id, fullName: m.fullName, username: m.username })),
    memberships: [...memberships.values()].filter((m) => m.idBoard === board.id).map((m) => ({
      id: m.id, idMember: m.idMember, memberType: m.memberType, unconfirmed: members.get(m.idMember)?.confirmed === false, deactivated: false
    }))
  })
  const roleActions = { admin: "makeAdminOfBoard", normal: "makeNormalMemberOfBoard", observer: "makeObserverOfBoard" } as const
  /** Adds a member to a board (addMemberToBoard), or changes their role (makeAdminOfBoard ...). */
  const addToBoard = (board: Board, member: Member, memberType: Membership["memberType"]) => {
    const existing = membershipOf(board.id, member.id)
    if (existing !== undefined) {
      if (existing.memberType === memberType) return
      existing.memberType = memberType
      record(board.id, roleActions[memberType], { board: boardRef(board), idMember: member.id, member: memberRef(member), memberType })
      return
    }
    const membership: Membership = { id: newId(), idBoard: board.id, idMember: member.id, memberType }
    memberships.set(membership.id, membership)
    record(board.id, "addMemberToBoard", { board: boardRef(board), idMember: member.id, member: memberRef(member), memberType })
  }
  /** Removes a member from a board and from its cards, as Trello does. */
  const removeFromBoard = (board: Board, member: Member) => {
    const membership = membershipOf(board.id, member.id)
    if (membership === undefined) return false
    for (const card of cards.values()) {
      if (card.idBoard === board.id && card.idMembers.includes(member.id)) removeFromCard(card, member)
    }
    memberships.delete(membership.id)
    record(board.id, "removeMemberFromBoard", { board: boardRef(board), idMember: member.id, member: memberRef(member) })
    return true
  }
  const cardContext = (card: Card) => ({ card: cardRef(card), list: listRef(lists.get(card.idList)!), board: boardRef(boards.get(card.idBoard)!) })
  const addToCard = (card: Card, member: Member) => {
    card.idMembers.push(member.id)
    record(card.idBoard, "addMemberToCard", { ...cardContext(card), idMember: member.id, member: memberRef(member) })
  }
  const removeFromCard = (card: Card, member: Member) => {
    card.idMembers = card.idMembers.filter((id) => id !== member.id)
    record(card.idBoard, "removeMemberFromCard", { ...cardContext(card), idMember: member.id, member: memberRef(member), deactivated: false })
  }
  const customFieldJson = (f: CustomField) => ({
    id: f.id,
    idModel: f.idBoard,
    modelType: "board",
    fieldGroup: createHash("sha256").update(f.id).digest("hex"),
    display: { cardFront: f.cardFront },
    name: f.name,
    pos: f.pos,
    ...(f.type === "list" ? { options: [...f.options].sort((a, b) => a.pos - b.pos).map((o) => optionJson(f, o)) } : {}),
    type: f.type,
    isSuggestedField: false
  })
  const optionJson = (f: CustomField, o: CustomField["options"][number]) => ({ id: o.id, idCustomField: f.id, value: { text: o.text }, color: o.color, pos: o.pos })
  const customFieldRef = (f: CustomField) => ({ id: f.id, name: f.name, type: f.type })
  const customFieldItemJson = (i: CustomFieldItem) => ({
    id: i.id,
    ...(i.idValue !== null ? { idValue: i.idValue } : { value: i.value }),
    idCustomField: i.idCustomField,
    idModel: i.idCard,
    modelType: "card"
  })
  const addCustomField = (
    board: Board,
    fields: { readonly id?: string; readonly name: string; readonly type: CustomField["type"]; readonly cardFront?: boolean; readonly pos?: number; readonly options?: ReadonlyArray<{ readonly id?: string; readonly text: string; readonly color?: string }> }
  ) => {
    const onBoard = [...customFields.values()].filter((f) => f.idBoard === board.id)
    const field: CustomField = {
      id: fields.id ?? newId(),
      idBoard: board.id,
      name: fields.name,
      type: fields.type,
      pos: fields.pos ?? (onBoard.length === 0 ? 16384 : Math.max(...onBoard.map((f) => f.pos)) + 16384),
      cardFront: fields.cardFront ?? true,
      options: (fields.options ?? []).map((o, i) => ({ id: o.id ?? newId(), text: o.text, color: o.color ?? "none", pos: (i + 1) * 16384 }))
    }
    customFields.set(field.id, field)
    record(board.id, "createCustomField", { board: boardRef(board), customField: customFieldRef(field) })
    return field
  }
  const deleteCustomField = (field: CustomField) => {
    customFields.delete(field.id)
    for (const [key, item] of customFieldItems) if (item.idCustomField === field.id) customFieldItems.delete(key)
    record(field.idBoard, "deleteCustomField", { board: boardRef(boards.get(field.idBoard)!), customField: customFieldRef(field) })
  }
  /** Sets (or, with neither a value nor an option, clears) a card's value: updateCustomFieldItem, with the old value. */
  const setCustomFieldItem = (card: Card, field: CustomField, value: Record<string, string> | null, idValue: string | null) => {
    const key = `${card.id}/${field.id}`
    const before = customFieldItems.get(key)
    const item: CustomFieldItem = { id: before?.id ?? newId(), idCard: card.id, idCustomField: field.id, value, idValue }
    if (value === null && idValue === null) customFieldItems.delete(key)
    else customFieldItems.set(key, item)
    const old = before === undefined ? { value: null } : before.idValue !== null ? { idValue: before.idValue } : { value: before.value }
    record(card.idBoard, "updateCustomFieldItem", {
      ...cardContext(card),
      customField: customFieldRef(field),
      customFieldItem: customFieldItemJson(item),
      old
    })
    return item
  }

  return {
    me,
    current,
    actAs,
    organization,
    members,
    boards,
    memberships,
    lists,
    cards,
    labels,
    webhooks,
    attachments,
    actions,
    nextId,
    /** Ends seeding: ids are random from now on, and actions are delivered. */
    seeded: () => void (seeding = 0),
    boardJson,
    listJson,
    cardJson,
    labelJson,
    memberJson,
    webhookJson,
    actionJson,
    boardRef,
    listRef,
    cardRef,
    record,
    modelsOf,
    modelJson,
    addBoard,
    addList,
    addCard,
    // --- comments, checklists, labels ---
    checklists,
    checkItems,
    reactions,
    checklistsOfCard,
    itemsOf,
    checkItemJson,
    checklistJson,
    reactionJson,
    checklistRef,
    checkItemRef,
    labelRef,
    onCard,
    addLabel,
    addDefaultLabels,
    // --- lists, boards, workspaces ---
    organizations,
    organizationJson,
    addOrganization,
    listsOf,
    updateList,
    moveAllCards,
    updateBoard,
    deleteBoard,
    copyBoardContent,
    // --- members, custom fields ---
    customFields,
    customFieldItems,
    memberRef,
    addMember,
    membershipOf,
    boardMembers,
    boardMembersJson,
    addToBoard,
    removeFromBoard,
    addToCard,
    removeFromCard,
    cardContext,
    customFieldJson,
    optionJson,
    customFieldItemJson,
    addCustomField,
    deleteCustomField,
    setCustomFieldItem,
    // --- notifications ---
    notifications,
    addNotification,
    notificationJson
  }
}
