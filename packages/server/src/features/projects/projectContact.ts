import { DEFAULT_PROJECT } from "./defaultNames.js"

/**
 * Whom an end user on the connect page can turn to: the project by its name. A project
 * nobody named (the first start's default, or a blank name) means nothing to an end user;
 * the application that sent them to the page does.
 */
export const projectContact = (name: string | undefined): string => {
  const trimmed = name?.trim() ?? ""
  return trimmed === "" || trimmed === DEFAULT_PROJECT ? "the application that sent you here" : trimmed
}
