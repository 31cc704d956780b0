export * as UndiciHttpClient from "./UndiciHttpClient.js"
