-- Matches stored before 008 had no `moved_at`: a claim's three days count from their last move
-- (or their start), not from their start alone.
UPDATE matches SET moved_at = COALESCE(
    (SELECT MAX(m.created_at) FROM moves AS m WHERE m.match_id = matches.id), started_at
) WHERE moved_at IS NULL AND status IN ('running', 'set_aside');
-- Results stored before 008 kept a resignation only as `resigned`: history names it as such.
UPDATE result_seats SET left_by = 'resigned' WHERE left_by IS NULL AND resigned = 1;
