import { z } from 'zod';
import { answerId } from '../common/answers';
import { answerText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';

/**
 * Attendance statuses (console-directory.md: 'Create or Update status' with Title and Active;
 * `GET|POST states/attendance`, `PATCH|DELETE states/attendance/{id}`). Active travels as 0 or 1.
 */
export const ZAttendanceStatusId = uuidOf('status id', 'status id must be a UUID', 'status id is required');

/** 1/0 as the spec sends it, and true/false as forms and tRPC do */
export const ZActiveFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], { error: 'active must be 1 or 0' })
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

/** `POST states/attendance/` and `PATCH states/attendance/{id}`: a new status is active unless said otherwise */
export const ZAttendanceStatusInput = z.object({
  title: requiredLine('Title', TEXT_MAX),
  active: ZActiveFlag.default(true),
});
export type TAttendanceStatusInput = z.input<typeof ZAttendanceStatusInput>;
export type TAttendanceStatusCommandInput = z.output<typeof ZAttendanceStatusInput>;

export const ZUpdateAttendanceStatusByIdInput = ZAttendanceStatusInput.extend({ id: ZAttendanceStatusId });

/** as the spec lists them: 1 means selectable */
export const ZAttendanceStatus = z.object({ id: answerId(), title: answerText(TEXT_MAX), active: z.literal([0, 1]) });
export type TAttendanceStatus = z.infer<typeof ZAttendanceStatus>;
