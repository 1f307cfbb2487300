"""The class in the room: a session's answers and pushed positions in a database, and the hook
lesson widgets call to record an answer (`record`, `join`, `AnswerRecorder`)."""

from __future__ import annotations

from palace.classroom.recorder import (
    AnswerRecorder,
    Recorder,
    current_recorder,
    join,
    leave,
    page_student,
    record,
    record_answer,
)
from palace.classroom.store import (
    ClassError,
    ClassStore,
    ClassSummary,
    Push,
    QuestionCount,
    StudentCount,
)

__all__ = [
    "AnswerRecorder",
    "ClassError",
    "ClassStore",
    "ClassSummary",
    "Push",
    "QuestionCount",
    "Recorder",
    "StudentCount",
    "current_recorder",
    "join",
    "leave",
    "page_student",
    "record",
    "record_answer",
]
