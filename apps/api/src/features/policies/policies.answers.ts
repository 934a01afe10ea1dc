/** What REST and tRPC answer alike for password policies (shaped once, here). */

export const policyDeletedMessage = (title: string) => `Policy "${title}" deleted`;
