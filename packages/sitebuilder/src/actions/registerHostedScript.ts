import { Action, Property } from "@x/core"
import * as CustomCode from "../api/customCode.js"
import * as CustomCodeRules from "../customCodeRules.js"
import * as Props from "../props.js"
import * as Scopes from "../scopes.js"

export const registerHostedScript = Action.make({
  name: "registerHostedScript",
  title: "Register Hosted Script",
  impact: "write", idempotent: false,
  description: "Registers a script hosted elsewhere (its https URL and Sub-Resource Integrity hash) to a site, to apply to the site or its pages.",
  props: {
    siteId: Props.siteId(true),
    displayName: Props.scriptName,
    version: Props.scriptVersion,
    hostedLocation: Property.string({
      title: "URL",
      description: "Where the script is: an https URL.",
      required: true,
      maxLength: 2048,
      pattern: /^https:\/\/[^\s/]+\/\S*$/,
      patternMessage: "must be an https URL"
    }),
    integrityHash: Property.string({
      title: "Integrity hash",
      description: "Its Sub-Resource Integrity hash: sha384-… (sha256, sha384 or sha512, base64).",
      required: true,
      pattern: CustomCodeRules.integrityHashPattern,
      patternMessage: "must be a Sub-Resource Integrity hash: sha256-, sha384- or sha512- and the base64 digest"
    }),
    canCopy: Props.canCopy
  },
  output: CustomCode.RegisteredScript,
  scopes: [Scopes.customCodeWrite, Scopes.sitesRead],
  run: (script, { client }) => CustomCode.registerHosted(client, { ...script, canCopy: script.canCopy ?? false })
})
