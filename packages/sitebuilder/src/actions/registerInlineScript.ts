import { Action, Property } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as CustomCodeRules from "../customCodeRules.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const registerInlineScript = Action.make({
  name: "registerInlineScript",
  title: "Register Inline Script",
  impact: "write", idempotent: false,
  description: "Registers a script Webflow hosts (its code, 2000 characters at most) to a site, to apply to the site or its pages.",
  props: {
    siteId: Props.siteId(true),
    displayName: Props.scriptName,
    version: Props.scriptVersion,
    sourceCode: Property.string({
      title: "Code",
      description: "The JavaScript, without a <script> tag; 2000 characters at most.",
      required: true,
      minLength: 1,
      maxLength: CustomCodeRules.inlineScriptMaxLength
    }),
    canCopy: Props.canCopy
  },
  validate: ({ sourceCode }) =>
    /^\s*<script[\s>]/i.test(sourceCode) ? [{ path: "sourceCode", message: "must be the code only, without a <script> tag: Webflow adds it" }] : [],
  output: CustomCode.RegisteredScript,
  scopes: [Scopes.customCodeWrite, Scopes.sitesRead],
  run: (script, { client }) => CustomCode.registerInline(client, { ...script, canCopy: script.canCopy ?? false })
})
