import { describe, expect, it } from 'vitest';
import { keyPhrase } from '../../../main/core/conversation/chat/key-phrase.js';
import { cleanTitle } from '../../../main/core/conversation/chat/thread-title.js';

describe('a thread title without a model: the question’s key phrase', () => {
  it('keeps the content words and the words joining them, drops how the question is asked', () => {
    expect(keyPhrase('How much is the equipment allowance for remote staff?')).toBe('Equipment allowance for remote staff');
    expect(keyPhrase('Count slowly for me please')).toBe('Count slowly');
    expect(keyPhrase('Help me plan a two-week study schedule for learning SQL.')).toBe('Plan a two-week study schedule for learning SQL');
  });

  it('splits Chinese and Japanese into words as the index does, and keeps them in their language', () => {
    expect(keyPhrase('设备补贴是多少')).toBe('设备补贴');
    expect(keyPhrase('会議室はどこにありますか')).toBe('会議室');
  });

  it('stays a title: a few words, never cut inside a compound, never ending on a joining word', () => {
    const long = keyPhrase('What are the rules for the use of company cars and of the parking garage in the Berlin office during holidays?');
    expect(long).toBe('Rules for the use of company cars');
    expect(keyPhrase('Wie hoch ist die Ausstattungspauschale für Remote-Mitarbeiter?')?.length).toBeLessThanOrEqual(60);
    expect(keyPhrase('Wie hoch ist die Ausstattungspauschale für Remote-Mitarbeiter?')).not.toMatch(/Remote$/);
    expect(keyPhrase('iPhone battery drains fast, why?')).toBe('iPhone battery drains fast');
  });

  it('is null when the question has no content word (the title stays)', () => {
    expect(keyPhrase('What is this?')).toBeNull();
    expect(keyPhrase('?!')).toBeNull();
  });
});

describe('a model’s reply as a title', () => {
  it('loses quotes, a label, markdown and trailing punctuation, and keeps to one line of a title’s length', () => {
    expect(cleanTitle('"Remote work equipment."')).toBe('Remote work equipment');
    expect(cleanTitle('Title: **Equipment allowance**\nBecause the question asks…')).toBe('Equipment allowance');
    expect(cleanTitle('「设备补贴」。')).toBe('设备补贴');
    expect(cleanTitle('\n\n  # Parking rules!  ')).toBe('Parking rules');
    expect(cleanTitle('here is what the file says [1].')).toBe('Here is what the file says');
    expect(cleanTitle('Use **const** and `let` for snake_case names')).toBe('Use const and let for snake_case names');
    expect(cleanTitle('Ferry times on the island [1')).toBe('Ferry times on the island');
    expect(cleanTitle('A title that goes on and on and on far beyond what a thread list could ever show')?.length).toBeLessThanOrEqual(60);
  });

  it('is null for a reply with nothing in it', () => {
    expect(cleanTitle('')).toBeNull();
    expect(cleanTitle(' "" ')).toBeNull();
  });
});
