import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../access/route-decorators';
import { Metrics } from './metrics';

/**
 * Prometheus' scrape target. Public like the health checks: it carries counts and timings, no
 * personal data; keep it off the internet at the reverse proxy (docs/running-in-production.md).
 */
@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  async scrape(@Res() response: Response): Promise<void> {
    response.setHeader('Content-Type', this.metrics.registry.contentType);
    response.send(await this.metrics.registry.metrics());
  }
}
