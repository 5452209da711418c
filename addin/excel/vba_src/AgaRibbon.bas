Attribute VB_Name = "AgaRibbon"
' The AGA Swiss McMahon ribbon. Every button hands its id to one Python dispatcher;
' Help and About work without Python. addin/excel/build.py fills in the fields in braces.
Option Explicit

Public Const ADDIN_TITLE As String = "{{TITLE}}"
Public Const ADDIN_VERSION As String = "{{VERSION}}"
Private Const SHEET_HELP As String = "{{SHEET_HELP}}"

Public Sub AgaButton(c As IRibbonControl)
    On Error GoTo Failed
    If ActiveWorkbook Is Nothing Then Workbooks.Add
    RunPython "{{PYTHON_COMMAND}}" & c.Id & "')"
    Exit Sub
Failed:
    ShowError "", "Excel could not start Python: " & Err.Description
End Sub

Public Sub AgaHelp(c As IRibbonControl)
    ' The guide's section for the sheet in front of the TD, else the Excel section.
    Dim Page As String, Section As String, Pairs() As String, i As Long
    On Error GoTo Failed
    Section = "in-excel"
    If Not ActiveSheet Is Nothing Then
        Pairs = Split(SHEET_HELP, ";")
        For i = 0 To UBound(Pairs)
            If LCase(Split(Pairs(i), "=")(0)) = LCase(ActiveSheet.Name) Then
                Section = Split(Pairs(i), "=")(1)
            End If
        Next i
    End If
    Page = GetConfig("HELP")
    If Page = "" Then
        MsgBox "The guide is docs/guide.md in the add-in's project folder, section 'In Excel'.", _
            vbInformation, ADDIN_TITLE
        Exit Sub
    End If
    ThisWorkbook.FollowHyperlink Page & "#" & Section
    Exit Sub
Failed:
    MsgBox "The guide could not be opened: " & Err.Description & vbLf & Page, _
        vbExclamation, ADDIN_TITLE
End Sub

Public Sub AgaAbout(c As IRibbonControl)
    MsgBox ADDIN_TITLE & " " & ADDIN_VERSION & vbLf & _
        "Python: " & GetConfig(InterpreterKey(), "python") & vbLf & _
        "Code: " & GetConfig("PYTHONPATH", "(not set)") & vbLf & _
        "Log: " & LogPath(), vbInformation, ADDIN_TITLE
End Sub

Private Function InterpreterKey() As String
    #If Mac Then
        InterpreterKey = "INTERPRETER_MAC"
    #Else
        InterpreterKey = "INTERPRETER_WIN"
    #End If
End Function

Public Function LogPath() As String
    ' Where every error's full text is kept (Excel on macOS may write only in its container).
    #If Mac Then
        LogPath = Environ("HOME") & "/{{LOG}}"
    #Else
        LogPath = Environ("TEMP") & "\{{LOG}}"
    #End If
End Function

Public Sub ShowError(FileName As String, Optional Message As String = "")
    ' Every failure RunPython reports: the last line of the message, a hint, and where
    ' the whole text is. Replaces xlwings' own, which shows a whole traceback.
    Dim Content As String, Shown As String, Lines() As String, i As Long, f As Integer
    On Error Resume Next
    If Message = "" Then Content = ReadFile(FileName) Else Content = Message
    f = FreeFile
    Open LogPath() For Append As #f
    Print #f, Now & vbTab & Content
    Close #f
    Lines = Split(Replace(Content, vbCr, vbLf), vbLf)
    For i = UBound(Lines) To 0 Step -1
        If Trim(Lines(i)) <> "" Then
            Shown = Trim(Lines(i))
            Exit For
        End If
    Next i
    If Len(Shown) > 300 Then Shown = Left(Shown, 300) & "..."
    If InStr(Content, "No module named") > 0 Or InStr(Content, "cannot find") > 0 Then
        Shown = Shown & vbLf & vbLf & "Python cannot find the add-in's code. " & _
            "In a terminal, run again: python -m addin install-excel"
    End If
    MsgBox Shown & vbLf & vbLf & "The full message is in " & LogPath(), _
        vbExclamation, ADDIN_TITLE
End Sub
