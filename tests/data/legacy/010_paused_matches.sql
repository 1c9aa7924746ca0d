-- A running match the bot can no longer publish (its server removed the bot, or a permission
-- it needs in the match's channel was taken away) is set aside with `resumable` set: its clock
-- stops and nothing is sent for it until one of its players resumes it (`/matches` → Board ↓)
-- once the bot can post there again. Matches set aside for other reasons stay ended (0).
ALTER TABLE matches ADD COLUMN resumable INTEGER NOT NULL DEFAULT 0;
