import { Property } from "@x/core"
import * as Webhooks from "../api/webhooks.js"
import * as PageOptions from "../options/pages.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"
import * as Webhook from "./webhook.js"

export const commentCreated = Webhook.make({
  name: "commentCreated",
  title: "Comment Created",
  description:
    "Fires when someone starts a comment thread or replies to one on a page of the site (Webflow may take up to 5 minutes to send it), optionally only on one page or only new threads.",
  props: {
    pageId: Props.webflowId({ title: "Page", description: "Only comments on this page (else: on any page of the site).", dynamicOptions: PageOptions.pages }),
    threadsOnly: Property.boolean({ title: "New threads only", description: "Leave out replies to a thread.", defaultValue: false })
  },
  triggerType: "comment_created",
  readScope: Scopes.commentsRead,
  payload: Webhooks.CommentEvent,
  // Each comment (a thread's first or a reply) has its own id.
  id: (comment) => comment.commentId,
  // Webflow's webhook has no page filter: the payload's page decides.
  matches: (comment, { pageId, threadsOnly }) =>
    (pageId === undefined || Webhook.same(comment.pageId, pageId)) && (threadsOnly !== true || comment.type === "new_comment")
  // No sample: Webflow lists comment threads, not the comments and replies the events carry.
})
