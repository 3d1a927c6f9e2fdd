/**
 * cron.schedule_is_valid(text): the schedule check of cron.job's trigger, the same grammar as parseCronSchedule in
 * @stratum/contracts (cron.ts; pg_cron's entry.c): five fields of lists of `*`, numbers, names, ranges and /steps,
 * `$` for the last day of the month, an @special, or '[1-59] seconds'. Executable by all: the trigger runs as the caller.
 */
export const SCHEDULE_CHECK_SQL = `
  CREATE OR REPLACE FUNCTION cron.schedule_is_valid(schedule text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $fn$
  DECLARE
    lows int[] := ARRAY[0, 0, 1, 1, 0];
    highs int[] := ARRAY[59, 23, 31, 12, 7];
    month_names text[] := ARRAY['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
    day_names text[] := ARRAY['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    trimmed text;
    fields text[];
    part text;
    m text[];
    token text;
    bounds int[];
    step int;
    name_index int;
  BEGIN
    IF schedule IS NULL OR length(schedule) >= 1000 THEN RETURN false; END IF;
    m := regexp_match(schedule, '^\\s*(\\d{1,9})\\s*seconds?\\s*$', 'i');
    IF m IS NOT NULL THEN RETURN m[1]::int BETWEEN 1 AND 59; END IF;
    trimmed := btrim(schedule, E' \\t\\n\\r\\f');
    IF left(trimmed, 1) = '@' THEN
      RETURN lower(substr(trimmed, 2)) = ANY (ARRAY['reboot', 'restart', 'yearly', 'annually', 'monthly', 'weekly', 'daily', 'midnight', 'hourly']);
    END IF;
    fields := regexp_split_to_array(trimmed, E'[ \\t]+');
    IF cardinality(fields) <> 5 THEN RETURN false; END IF;
    FOR i IN 1..5 LOOP
      CONTINUE WHEN i = 3 AND fields[3] = '$';
      FOREACH part IN ARRAY string_to_array(fields[i], ',') LOOP
        m := regexp_match(part, '^(?:(\\*)|([a-z0-9]+)(?:-([a-z0-9]+))?)(?:/([a-z0-9]+))?$', 'i');
        IF m IS NULL THEN RETURN false; END IF;
        IF m[1] IS NULL AND m[3] IS NULL AND m[4] IS NOT NULL THEN RETURN false; END IF;
        IF m[1] IS NOT NULL THEN
          bounds := ARRAY[lows[i], highs[i]];
        ELSE
          bounds := ARRAY[]::int[];
          FOREACH token IN ARRAY ARRAY[m[2], coalesce(m[3], m[2])] LOOP
            name_index := CASE i WHEN 4 THEN array_position(month_names, lower(token)) WHEN 5 THEN array_position(day_names, lower(token)) END;
            IF name_index IS NOT NULL THEN
              bounds := bounds || (name_index - 1 + lows[i]);
            ELSIF token ~ '^[0-9]{1,9}$' THEN
              bounds := bounds || token::int;
            ELSE
              RETURN false;
            END IF;
          END LOOP;
        END IF;
        IF m[4] IS NOT NULL AND m[4] !~ '^[0-9]{1,9}$' THEN RETURN false; END IF;
        step := coalesce(m[4]::int, 1);
        IF step <= 0 OR step > highs[i] THEN RETURN false; END IF;
        IF bounds[1] < lows[i] OR bounds[1] > highs[i] OR bounds[2] < lows[i] OR bounds[2] > highs[i] THEN RETURN false; END IF;
      END LOOP;
    END LOOP;
    RETURN true;
  END $fn$;
  GRANT EXECUTE ON FUNCTION cron.schedule_is_valid(text) TO PUBLIC;
`
