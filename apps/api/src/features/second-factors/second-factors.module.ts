import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConfirmTotpHandler } from './commands/confirm-totp.handler';
import { RegenerateRecoveryCodesHandler } from './commands/regenerate-recovery-codes.handler';
import { RemoveTotpHandler } from './commands/remove-totp.handler';
import { ResetSecondFactorsHandler } from './commands/reset-second-factors.handler';
import { StartTotpEnrolmentHandler } from './commands/start-totp-enrolment.handler';
import { EnrolmentProof } from './commands/enrolment-proof';
import { ConfirmationOptionsHandler, PasskeyRegistrationOptionsHandler, RegisterPasskeyHandler, RemovePasskeyHandler, RenamePasskeyHandler } from './commands/passkeys.handlers';
import { GetSecondFactorStatusHandler } from './queries/get-second-factor-status.query';
import { SecondFactorsV2Controller } from './rest/second-factors.v2.controller';

/**
 * Second factors (docs/adr/0025): enrolling, removing and resetting TOTP and recovery codes. The
 * sign-in's code step, the sealing of secrets and the codes themselves are the auth feature's
 * (auth/second-factor/), which this one uses.
 */
@Module({
  imports: [AuthModule],
  controllers: [SecondFactorsV2Controller],
  providers: [
    StartTotpEnrolmentHandler, ConfirmTotpHandler, RemoveTotpHandler, RegenerateRecoveryCodesHandler, ResetSecondFactorsHandler, GetSecondFactorStatusHandler,
    PasskeyRegistrationOptionsHandler, RegisterPasskeyHandler, RenamePasskeyHandler, ConfirmationOptionsHandler, RemovePasskeyHandler, EnrolmentProof,
  ],
})
export class SecondFactorsModule {}
