#!/usr/bin/env python3
"""
Writes dst-reference.json: events near DST changes and their occurrences (start, end) as an implementation
that shares nothing with the pack computes them: Python's zoneinfo (the system's tz database) and dateutil's
rrule, with RFC 5545's rules written out here:

- a local time a DST change skips is read with the offset before the gap, a repeated one is its first
  instant (3.3.5; zoneinfo's fold=0 does exactly this);
- DURATION (3.3.6): weeks and days are nominal (the same local time of the start's actual wall clock, so
  Temporal's ZonedDateTime.add), hours, minutes and seconds exact; a series' DTEND gives every instance the
  exact length DTSTART..DTEND (3.8.5.3);
- EXDATE and RECURRENCE-ID name an instance by its instant, whatever form they are written in.

Run it again after changing a case: python3 test/unit/dav/dst-reference.py && npx prettier --write
test/unit/dav/dst-reference.json
"""

import json
import os
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

UTC = timezone.utc

VTIMEZONES = {
    'Europe/Berlin': [
        'BEGIN:VTIMEZONE',
        'TZID:Europe/Berlin',
        'BEGIN:DAYLIGHT',
        'TZOFFSETFROM:+0100',
        'TZOFFSETTO:+0200',
        'TZNAME:CEST',
        'DTSTART:19700329T020000',
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
        'END:DAYLIGHT',
        'BEGIN:STANDARD',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0100',
        'TZNAME:CET',
        'DTSTART:19701025T030000',
        'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
        'END:STANDARD',
        'END:VTIMEZONE',
    ],
    'America/New_York': [
        'BEGIN:VTIMEZONE',
        'TZID:America/New_York',
        'BEGIN:DAYLIGHT',
        'TZOFFSETFROM:-0500',
        'TZOFFSETTO:-0400',
        'TZNAME:EDT',
        'DTSTART:20070311T020000',
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
        'END:DAYLIGHT',
        'BEGIN:STANDARD',
        'TZOFFSETFROM:-0400',
        'TZOFFSETTO:-0500',
        'TZNAME:EST',
        'DTSTART:20071104T020000',
        'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
        'END:STANDARD',
        'END:VTIMEZONE',
    ],
}

# 2027: the day of each change and a local time inside its gap or its repeated hour.
ZONES = {
    'Europe/Berlin': {'gap': (2027, 3, 28), 'gapTime': (2, 30), 'overlap': (2027, 10, 31), 'overlapTime': (2, 30)},
    'America/New_York': {'gap': (2027, 3, 14), 'gapTime': (2, 30), 'overlap': (2027, 11, 7), 'overlapTime': (1, 30)},
}


def wall(day, time, shift_days=0):
    return datetime(*day, *time) + timedelta(days=shift_days)


def text(value):
    return value.strftime('%Y%m%dT%H%M%S')


def instant(zone, naive):
    """RFC 5545 3.3.5: fold=0 is the offset before a gap and the first of a repeated hour."""
    return naive.replace(tzinfo=ZoneInfo(zone), fold=0).astimezone(UTC)


def iso(moment):
    return moment.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S.000Z')


def parse_duration(value):
    """(nominal days, exact seconds) of an RFC 5545 dur-value (positive, as events have)."""
    import re

    match = re.fullmatch(r'P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?', value)
    weeks, days, hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return weeks * 7 + days, hours * 3600 + minutes * 60 + seconds


def end_after(zone, start, duration):
    days, seconds = parse_duration(duration)
    local = start.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    return instant(zone, local + timedelta(days=days)) + timedelta(seconds=seconds)


def stamp_instant(zone, value):
    if value.endswith('Z'):
        return datetime.strptime(value, '%Y%m%dT%H%M%SZ').replace(tzinfo=UTC)
    return instant(zone, datetime.strptime(value, '%Y%m%dT%H%M%S'))


def zoned(name, zone, value):
    return f'{name}:{value}' if value.endswith('Z') else f'{name};TZID={zone}:{value}'


def event_lines(zone, event):
    lines = ['BEGIN:VEVENT', f"UID:{event['uid']}", 'DTSTAMP:20270101T000000Z']
    for key in ('recurrenceId', 'start', 'end'):
        if key in event:
            name = {'recurrenceId': 'RECURRENCE-ID', 'start': 'DTSTART', 'end': 'DTEND'}[key]
            lines.append(zoned(name, zone, event[key]))
    if 'duration' in event:
        lines.append(f"DURATION:{event['duration']}")
    if 'rrule' in event:
        lines.append(f"RRULE:{event['rrule']}")
    for exdate in event.get('exdates', []):
        lines.append(zoned('EXDATE', zone, exdate))
    lines += [f"SUMMARY:{event.get('summary', 'Event')}", 'END:VEVENT']
    return lines


def length_of(zone, event):
    """How an instance starting at `start` ends: exact DTSTART..DTEND, or the DURATION read per 3.3.6."""
    if 'duration' in event:
        return lambda start: end_after(zone, start, event['duration'])
    exact = stamp_instant(zone, event['end']) - stamp_instant(zone, event['start'])
    return lambda start: start + exact


def expected(zone, master, overrides):
    end_of = length_of(zone, master)
    first = stamp_instant(zone, master['start'])
    if 'rrule' not in master:
        return [f'- {iso(first)} {iso(end_of(first))}']
    walls = rrulestr(master['rrule'], dtstart=datetime.strptime(master['start'], '%Y%m%dT%H%M%S'))
    excluded = {stamp_instant(zone, value) for value in master.get('exdates', [])}
    moved = {stamp_instant(zone, event['recurrenceId']): event for event in overrides}
    lines = []
    for naive in walls:
        original = instant(zone, naive)
        if original in excluded:
            continue
        override = moved.get(original)
        if override:
            start = stamp_instant(zone, override['start'])
            lines.append(f'{iso(original)} {iso(start)} {iso(length_of(zone, override)(start))}')
        else:
            lines.append(f'{iso(original)} {iso(original)} {iso(end_of(original))}')
    return sorted(lines, key=lambda line: line.split(' ')[1])


def cases_for(zone, days):
    gap, overlap = days['gap'], days['overlap']
    gap_at = text(wall(gap, days['gapTime']))
    overlap_at = text(wall(overlap, days['overlapTime']))
    eve_of_gap = text(wall(gap, (22, 0), -1))
    eve_of_overlap = text(wall(overlap, (22, 0), -1))
    night = lambda start, length: {'start': start, 'duration': length}
    cases = {
        'start in the gap, PT1H': [night(gap_at, 'PT1H')],
        'start in the gap, P1D': [night(gap_at, 'P1D')],
        'start in the gap, DTEND after it': [{'start': gap_at, 'end': text(wall(gap, (4, 0)))}],
        'start in the repeated hour, PT1H': [night(overlap_at, 'PT1H')],
        'start in the repeated hour, P1D': [night(overlap_at, 'P1D')],
        'across spring-forward, PT8H': [night(eve_of_gap, 'PT8H')],
        'across spring-forward, P1D': [night(eve_of_gap, 'P1D')],
        'across spring-forward, PT24H': [night(eve_of_gap, 'PT24H')],
        'across spring-forward, P1DT2H': [night(eve_of_gap, 'P1DT2H')],
        'across spring-forward, P1W': [night(text(wall(gap, (12, 0), -3)), 'P1W')],
        'across fall-back, PT8H': [night(eve_of_overlap, 'PT8H')],
        'across fall-back, P1D': [night(eve_of_overlap, 'P1D')],
        'across fall-back, PT24H': [night(eve_of_overlap, 'PT24H')],
        'daily 22:00 PT8H across spring-forward': [
            {**night(text(wall(gap, (22, 0), -2)), 'PT8H'), 'rrule': 'FREQ=DAILY;COUNT=4'}
        ],
        'daily 22:00 with DTEND (exact 8 h) across spring-forward': [
            {
                'start': text(wall(gap, (22, 0), -2)),
                'end': text(wall(gap, (6, 0), -1)),
                'rrule': 'FREQ=DAILY;COUNT=4',
            }
        ],
        'daily 22:00 with DTEND (exact 8 h) across fall-back': [
            {
                'start': text(wall(overlap, (22, 0), -2)),
                'end': text(wall(overlap, (6, 0), -1)),
                'rrule': 'FREQ=DAILY;COUNT=4',
            }
        ],
        'daily 22:00 P1D across fall-back': [
            {**night(text(wall(overlap, (22, 0), -2)), 'P1D'), 'rrule': 'FREQ=DAILY;COUNT=4'}
        ],
        'daily in the gap, PT1H': [
            {**night(text(wall(gap, days['gapTime'], -1)), 'PT1H'), 'rrule': 'FREQ=DAILY;COUNT=3'}
        ],
        'daily in the repeated hour, PT1H': [
            {**night(text(wall(overlap, days['overlapTime'], -1)), 'PT1H'), 'rrule': 'FREQ=DAILY;COUNT=3'}
        ],
        'weekly 12:00 P1W across both changes': [
            {**night(text(wall(gap, (12, 0), -7)), 'P1W'), 'rrule': 'FREQ=WEEKLY;COUNT=35'}
        ],
        'EXDATE in the gap, local form': [
            {
                **night(text(wall(gap, days['gapTime'], -1)), 'PT1H'),
                'rrule': 'FREQ=DAILY;COUNT=3',
                'exdates': [gap_at],
            }
        ],
        'EXDATE in the gap, UTC form': [
            {
                **night(text(wall(gap, days['gapTime'], -1)), 'PT1H'),
                'rrule': 'FREQ=DAILY;COUNT=3',
                'exdates': [instant(zone, wall(gap, days['gapTime'])).strftime('%Y%m%dT%H%M%SZ')],
            }
        ],
        'RECURRENCE-ID in the gap, local form': [
            {**night(text(wall(gap, days['gapTime'], -1)), 'PT1H'), 'rrule': 'FREQ=DAILY;COUNT=3'},
            {'recurrenceId': gap_at, 'start': text(wall(gap, (10, 0))), 'duration': 'PT2H', 'summary': 'Moved'},
        ],
        'RECURRENCE-ID in the gap, UTC form': [
            {**night(text(wall(gap, days['gapTime'], -1)), 'PT1H'), 'rrule': 'FREQ=DAILY;COUNT=3'},
            {
                'recurrenceId': instant(zone, wall(gap, days['gapTime'])).strftime('%Y%m%dT%H%M%SZ'),
                'start': text(wall(gap, (10, 0))),
                'duration': 'PT2H',
                'summary': 'Moved',
            },
        ],
    }
    return cases


def build():
    out = []
    for zone, days in ZONES.items():
        tz = ZoneInfo(zone)
        # The chosen times really are in a gap (no round trip) and in a repeated hour (two offsets).
        gap_wall = wall(days['gap'], days['gapTime'])
        assert instant(zone, gap_wall).astimezone(tz).replace(tzinfo=None) != gap_wall
        repeated = wall(days['overlap'], days['overlapTime']).replace(tzinfo=tz)
        assert repeated.utcoffset() != repeated.replace(fold=1).utcoffset()
        for name, events in cases_for(zone, days).items():
            for index, event in enumerate(events):
                event['uid'] = 'dst'
                event.setdefault('summary', 'Event')
            for with_vtimezone in (False, True):
                lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//DST reference//EN']
                if with_vtimezone:
                    lines += VTIMEZONES[zone]
                for event in events:
                    lines += event_lines(zone, event)
                lines.append('END:VCALENDAR')
                out.append(
                    {
                        'name': f"{zone} {name}{' (its VTIMEZONE in the object)' if with_vtimezone else ''}",
                        'ics': '\r\n'.join(lines) + '\r\n',
                        'occurrences': expected(zone, events[0], events[1:]),
                    }
                )
    return out


if __name__ == '__main__':
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dst-reference.json')
    with open(target, 'w', encoding='utf-8') as file:
        json.dump(build(), file, indent='\t', ensure_ascii=False)
        file.write('\n')
