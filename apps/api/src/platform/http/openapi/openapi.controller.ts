import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException, type OnModuleInit, Param, Res, type Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'express';
import { Public } from '../../access/route-decorators';
import { describedRoutes } from './described-routes';
import { buildOpenApiDocument } from './openapi-document';

const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png']);
const swaggerDir = () => dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * The OpenAPI document and a browsable page (Swagger UI, served from our origin; no inline script).
 * The document is built once at start from the controllers Nest mounted and their `@Documented`
 * descriptions (docs/adr/0023): a REST route without one stops the start, naming it.
 */
@Controller('api')
export class OpenApiController implements OnModuleInit {
  private document: ReturnType<typeof buildOpenApiDocument> | undefined;

  constructor(private readonly modules: ModulesContainer) {}

  onModuleInit() {
    const controllers = [...this.modules.values()].flatMap((module) => [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type));
    this.document = buildOpenApiDocument(describedRoutes(controllers));
  }

  @Public()
  @Get('openapi.json')
  openApi() {
    return this.document;
  }

  @Public()
  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  page() {
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rollcall API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><main id="swagger-ui"></main>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;
  }

  @Public()
  @Get('docs/init.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  init() {
    return `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui' });`;
  }

  @Public()
  @Get('docs/assets/:file')
  asset(@Param('file') file: string, @Res() response: Response) {
    if (!SWAGGER_ASSETS.has(file)) throw new NotFoundException();
    response.sendFile(join(swaggerDir(), file));
  }
}
