export * from "./builtinConnectorSources.js"
