/** What REST and tRPC answer alike for smart cards (shaped once, here). */

export const cardRemovedMessage = (uid: string) => `Card ${uid} removed`;
