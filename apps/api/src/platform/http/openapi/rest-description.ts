import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

/**
 * What a REST route says about itself beside its method and path (docs/adr/0023): the one
 * description the OpenAPI document, docs/api/compat.md's check and the contract suite read. The
 * method, path, status, versions and public flag come from the route's own Nest decorators; the
 * answer's shape comes from libs/contracts.
 */
export interface RestDescription {
  summary: string;
  /** the answer: bare on v1, inside `{data}` on v2 (unless `bare`); a file for downloads */
  answer: z.ZodType | FileAnswer;
  /** v2's inner shape, where it differs from v1's */
  v2Answer?: z.ZodType;
  /** the JSON body the route parses */
  body?: z.ZodType;
  /** the query parameters the route parses */
  query?: z.ZodObject;
  /** path parameters with a shape of their own (the others are documented as text) */
  params?: z.ZodObject;
  /** answered as is on every prefix, never wrapped in `{data}` (the door readers' protocol) */
  bare?: true;
  /** who calls it when not a session or an access token: a door reader with its own token */
  caller?: 'reader';
}

/** A download: the answer is a file of one of these media types, not JSON. */
export interface FileAnswer {
  file: readonly string[];
}

export const fileAnswer = (...mediaTypes: string[]): FileAnswer => ({ file: mediaTypes });

export const isFileAnswer = (answer: RestDescription['answer']): answer is FileAnswer => 'file' in answer && Array.isArray((answer as FileAnswer).file);

export const REST_DESCRIPTION = 'rollcall:rest-description';

/**
 * Describes a REST route once, beside its `@Get`/`@Post`...: a route of /api/v1 or /api/v2 without
 * it stops the app at start (describedRoutes), so no route can exist undocumented.
 */
export const Documented = (description: RestDescription) => SetMetadata(REST_DESCRIPTION, description);
