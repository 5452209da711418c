"""The LibreOffice Calc front door: a UNO gateway, Calc dialogs and the .oxt extension."""
