import { describe, expect, it } from 'vitest';
import { moveConsequence, moveNeedsConfirmation } from './moves';

describe('research subject status moves', () => {
  it('asks before moves that stop recruiting, close or conclude', () => {
    expect(moveNeedsConfirmation('staged', 'closed')).toBe(true);
    expect(moveNeedsConfirmation('recruiting', 'recruitmentStopped')).toBe(true);
    expect(moveNeedsConfirmation('recruiting', 'dataPreparing')).toBe(true);
    expect(moveNeedsConfirmation('dataPrepared', 'topicConcluded')).toBe(true);
    expect(moveConsequence('recruiting', 'dataPreparing')).toBe('stopRecruiting');
    expect(moveConsequence('dataPrepared', 'closed')).toBe('close');
  });

  it('lets other moves happen at once', () => {
    expect(moveNeedsConfirmation('staged', 'recruiting')).toBe(false);
    expect(moveNeedsConfirmation('dataPreparing', 'dataPrepared')).toBe(false);
  });
});
