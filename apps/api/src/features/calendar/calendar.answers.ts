/** What REST and tRPC answer alike for the calendar (shaped once, here). */

export const EVENT_REMOVED_MESSAGE = 'Event removed successfully';

export const EVENT_SAVED_MESSAGE = 'Event created successfully';
