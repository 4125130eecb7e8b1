"""A CSV file the instructor downloads (the polls' answers, the class's questions): a header row and
the rows, written with the csv module and sent as an attachment."""
import csv
import io
from collections.abc import Iterable

from flask import Response


def attachment(filename: str, header: list[str], rows: Iterable[list]) -> Response:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
