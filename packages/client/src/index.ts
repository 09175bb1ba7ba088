export * from "./SwitchyardClient.js"
